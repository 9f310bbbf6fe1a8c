// Job records stored as json text (migration 0054, ADR 0064): the jobs a database held as jsonb
// before the migration are the same records after it, claimed and run as before; a record is
// read back as it was put, also one of a fan-out's size, and a held delivery's release
// (advanceGroup, which edits the record's due time) keeps the rest of it.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Job } from "../../domain/job.ts";
import { makeJob } from "../contract/fixtures-features.ts";
import type { Storage } from "../ports.ts";
import { connectPostgres } from "./connect.ts";
import { openPostgresStorage } from "./index.ts";
import { migrate } from "./migrate.ts";
import { migrateBefore } from "./testing/migrate-before.ts";
import { createTempDatabase, type TempDatabase } from "./testing/temp-database.ts";

const MIGRATION = "0054_jobs_data_json.sql";

describe("postgres job records as json (migration 0054)", () => {
  let database: TempDatabase;
  let storage: Storage;
  const older = makeJob({
    id: "41",
    payload: { message: { inbox: "https://a.example/inbox", nested: { b: [1, "two"], a: null } } },
    orderingKey: "https://h.example/users/a/statuses/1\nhttps://a.example",
  });

  before(async () => {
    database = await createTempDatabase({ migrated: false });
    const sql = connectPostgres({ url: database.url, poolMax: 1 });
    try {
      // The schema as it was before the migration, with a job in it stored as jsonb.
      await migrateBefore(sql, MIGRATION);
      await sql`
        insert into jobs (id, run_at, data)
        values (${older.id}, ${older.runAt}, ${JSON.stringify(older)}::text::jsonb)`;
      assert.deepEqual(await migrate(sql).then((names) => names[0]), MIGRATION);
      const [column] = await sql<{ type: string }[]>`
        select data_type as type from information_schema.columns
        where table_name = 'jobs' and column_name = 'data'`;
      assert.equal(column?.type, "json");
    } finally {
      await sql.end();
    }
    storage = await openPostgresStorage({ url: database.url });
  });
  after(async () => {
    await storage?.close();
    await database?.drop();
  });

  it("claims a job stored before the migration as it was", async () => {
    const far = "2100-01-01T00:00:00.000Z";
    const [claimed] = await storage.jobs.claim(far, 10, far, "runner-a");
    assert.deepEqual(claimed, older);
    assert.equal(await storage.jobs.complete(older.id, "runner-a"), true);
  });

  it("reads back a record of a fan-out's size as it was put, and after a release", async () => {
    const record = (zero: string): Job =>
      makeJob({
        id: "42",
        runAt: "2030-01-01T00:00:00.000Z",
        group: "held:x",
        payload: { message: { activity: { content: "é".repeat(6_000), zero }, keys: ["k"] } },
      });
    const job = record("a\u0000b");
    await storage.jobs.put(job);
    // U+0000 is kept out of stored records (jsonb.ts): the release edits the record as jsonb.
    const stored = record("a\uFFFDb");
    assert.deepEqual(await storage.jobs.get(job.id), stored);
    assert.equal(await storage.jobs.advanceGroup("held:x", "2029-01-01T00:00:00.000Z"), 1);
    assert.deepEqual(await storage.jobs.get(job.id), {
      ...stored,
      runAt: "2029-01-01T00:00:00.000Z",
    });
  });

  it("takes the previous version's release of a held delivery (a rolling upgrade)", async () => {
    await storage.jobs.put(makeJob({ id: "43", runAt: "2030-01-01T00:00:00.000Z", group: "g" }));
    const sql = connectPostgres({ url: database.url, poolMax: 1 });
    try {
      // advanceGroup's update as the version before migration 0054 sends it.
      await sql`
        update jobs set data = jsonb_set(data, '{runAt}', to_jsonb('2029-06-01T00:00:00.000Z'::text))
        where grp = 'g'`;
    } finally {
      await sql.end();
    }
    assert.equal((await storage.jobs.get("43"))?.runAt, "2029-06-01T00:00:00.000Z");
  });
});
