// The part many jobs carry alike, stored once (migration 0056, ADR 0067): a fan-out's jobs put
// together write their shared part once and their rows without it; another process reads them
// back whole; a dump has them whole; the sweep takes a share once no job names it and it was
// not touched for a minute, and never one a job still names.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Job } from "../../domain/job.ts";
import { makeJob } from "../contract/fixtures-features.ts";
import type { Storage } from "../ports.ts";
import { connectPostgres, type Sql } from "./connect.ts";
import { dumpDatabase } from "./dump.ts";
import { openPostgresStorage } from "./index.ts";
import { sweepJobShares } from "./job-shares.ts";
import { createTempDatabase, type TempDatabase } from "./testing/temp-database.ts";

const far = "2100-01-01T00:00:00.000Z";

describe("postgres job shares (migration 0056)", () => {
  let database: TempDatabase;
  let storage: Storage;
  let peer: Storage;
  let sql: Sql;
  const shared = { activity: { id: "https://h.example/1", content: "x".repeat(8_000) }, keys: [] };
  const fanOut = (name: string, from: number, n: number): Job[] =>
    Array.from({ length: n }, (_, i) =>
      makeJob({
        id: String(from + i),
        type: "federation.task",
        shared: name,
        payload: { message: { inbox: `https://s${i}.example/inbox` }, shared },
      }),
    );

  before(async () => {
    database = await createTempDatabase();
    storage = await openPostgresStorage({ url: database.url, poolMax: 2 });
    peer = await openPostgresStorage({ url: database.url, poolMax: 2 });
    sql = connectPostgres({ url: database.url, poolMax: 1 });
  });
  after(async () => {
    await sql?.end();
    await peer?.close();
    await storage?.close();
    await database?.drop();
  });

  it("stores a fan-out's shared part once, and another process reads its jobs whole", async () => {
    const jobs = fanOut("fan-a", 100, 50);
    await Promise.all(jobs.map((job) => storage.jobs.put(job)));
    const [shares] = await sql<{ n: number }[]>`select count(*)::int as n from job_shares`;
    assert.equal(shares?.n, 1);
    const rows = await sql<{ share: string; has: boolean }[]>`
      select share, (data::jsonb->'payload') ? 'shared' as has from jobs`;
    assert.equal(rows.length, 50);
    assert.ok(rows.every((row) => row.share === "fan-a" && !row.has));
    const claimed = await peer.jobs.claim(far, 100, far, "peer");
    assert.deepEqual(
      claimed.sort((a, b) => Number(a.id) - Number(b.id)),
      jobs,
    );
    // One fan-out's jobs share one object as read (the body is serialized once per process).
    assert.equal(claimed[0]?.payload.shared, claimed[49]?.payload.shared);
    const dumped = [];
    for await (const { kind, record } of dumpDatabase(sql))
      if (kind === "jobs") dumped.push(record);
    assert.deepEqual(
      (dumped as Job[]).sort((a, b) => Number(a.id) - Number(b.id)),
      jobs,
    );
    for (const job of jobs) assert.equal(await peer.jobs.complete(job.id, "peer"), true);
  });

  it("sweeps only the shares no job names and not touched for a minute", async () => {
    await sql`delete from jobs`;
    await sql`delete from job_shares`;
    await Promise.all(fanOut("fan-b", 200, 3).map((job) => storage.jobs.put(job)));
    await Promise.all(fanOut("fan-c", 300, 2).map((job) => storage.jobs.put(job)));
    // fan-c's jobs are done; both shares are old enough for the sweep.
    await sql`delete from jobs where share = 'fan-c'`;
    await sql`update job_shares set touched = now() - interval '2 minutes'`;
    await Promise.all(fanOut("fan-d", 400, 1).map((job) => storage.jobs.put(job)));
    await sql`delete from jobs where share = 'fan-d'`;
    // A later statement of fan-b touches its share again.
    await storage.jobs.put(fanOut("fan-b", 203, 1)[0] as Job);
    assert.equal(await sweepJobShares(sql), 1);
    const left = await sql<{ key: string }[]>`select key from job_shares order by key`;
    // fan-d is done but was touched just now: a later statement of it may still come.
    assert.deepEqual(
      left.map((row) => row.key),
      ["fan-b", "fan-d"],
    );
    const claimed = await peer.jobs.claim(far, 10, far, "peer");
    assert.equal(claimed.length, 4);
    assert.ok(claimed.every((job) => job.payload.shared !== undefined));
  });
});
