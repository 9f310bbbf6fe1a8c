// Status puts gathered into one statement (status-puts.ts, migration 0052): puts asked for while
// one runs share the next statement (one transaction: their rows share an xmin), each with the
// job it carries; a put that fails fails alone; two puts of one status keep the order asked;
// authors mixed in one statement are counted right; another process hears every put of one.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { makeJob } from "../contract/fixtures-features.ts";
import type { Storage } from "../ports.ts";
import { connectPostgres, type Sql } from "./connect.ts";
import { openPostgresStorage } from "./index.ts";
import { eventually } from "./testing/hooks.ts";
import { createTempDatabase, type TempDatabase } from "./testing/temp-database.ts";

describe("postgres status puts gathered", () => {
  let database: TempDatabase;
  let storage: Storage;
  /** Another process on the same database. */
  let other: Storage;
  let sql: Sql;

  before(async () => {
    database = await createTempDatabase();
    storage = await openPostgresStorage({ url: database.url, poolMax: 4 });
    other = await openPostgresStorage({ url: database.url, poolMax: 2 });
    sql = connectPostgres({ url: database.url, poolMax: 1 });
  });

  after(async () => {
    await sql?.end();
    await other?.close();
    await storage?.close();
    await database?.drop();
  });

  /** The transactions that wrote `ids`' rows (xmin), distinct. */
  const transactions = async (table: "statuses" | "jobs", ids: readonly string[]) => {
    const column = table === "statuses" ? sql`id::text` : sql`id`;
    const rows = await sql<{ n: number }[]>`
      select count(distinct xmin::text)::int as n from ${sql(table)}
      where ${column} = any(${[...ids]}::text[])`;
    return rows[0]?.n ?? 0;
  };

  it("stores puts asked for at once in few transactions, each with the job it carries", async () => {
    const ids = Array.from({ length: 30 }, (_, i) => String(100 + i));
    await Promise.all(
      ids.map((id) =>
        storage.jobs.putAround(makeJob({ id: `job-${id}` }), () =>
          storage.statuses.put(makeStatus({ id, accountId: "7", tags: [`t${id}`] })),
        ),
      ),
    );
    // The first goes alone at once; the 29 asked meanwhile go together.
    assert.ok((await transactions("statuses", ids)) <= 2);
    const jobIds = ids.map((id) => `job-${id}`);
    assert.ok((await transactions("jobs", jobIds)) <= 2);
    const jobs = await sql<{ id: string; status: string }[]>`
      select j.id, s.id::text as status from jobs j
      join statuses s on s.xmin::text = j.xmin::text and s.id = (substr(j.id, 5))::int8
      where j.id = any(${jobIds}::text[])`;
    assert.equal(jobs.length, 30, "each job committed with its status");
    const got = await storage.statuses.getMany(ids);
    assert.deepEqual([...got.keys()].sort(), ids);
    assert.equal(await storage.statuses.countByAccount("7"), 30);
    const tagged = await storage.statuses.listTagEntries("t120", { limit: 5 }, { origin: "all" });
    assert.deepEqual(
      tagged.map((e) => e.status_id),
      ["120"],
    );
  });

  it("fails only the put at fault among those sent together", async () => {
    const good = Array.from({ length: 10 }, (_, i) => String(200 + i));
    const results = await Promise.allSettled([
      ...good.map((id) => storage.statuses.put(makeStatus({ id, accountId: "8" }))),
      storage.statuses.put(makeStatus({ id: "210", accountId: "not a number" })),
      ...good.map((id) => storage.statuses.put(makeStatus({ id: `${id}1`, accountId: "8" }))),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      [...good.map(() => "fulfilled"), "rejected", ...good.map(() => "fulfilled")],
    );
    assert.equal(await storage.statuses.countByAccount("8"), 20);
    assert.equal(await storage.statuses.get("210"), undefined);
  });

  it("keeps the order asked of two puts of one status sent together", async () => {
    const first = storage.statuses.put(makeStatus({ id: "300", accountId: "9" }));
    const edits = ["a", "b", "c"].map((tag) =>
      storage.statuses.put(makeStatus({ id: "301", accountId: "9", tags: [tag], text: tag })),
    );
    await Promise.all([first, ...edits]);
    const [row] = await sql<{ text: string; tags: string[] }[]>`
      select data->>'text' as text, tags from statuses where id = 301`;
    assert.deepEqual(row, { text: "c", tags: ["c"] });
    const listed = await sql<{ tag: string }[]>`select tag from status_tags where status_id = 301`;
    assert.deepEqual(
      listed.map((r) => r.tag),
      ["c"],
    );
    assert.equal(await storage.statuses.countByAccount("9"), 2);
  });

  it("counts each author's statuses when authors are mixed in one statement", async () => {
    const puts = Array.from({ length: 12 }, (_, i) =>
      storage.statuses.put(makeStatus({ id: String(400 + i), accountId: String(20 + (i % 3)) })),
    );
    await Promise.all(puts);
    const facts = await storage.statuses.accountFacts(["20", "21", "22"]);
    assert.deepEqual(
      [...facts.values()].map((f) => f.count),
      [4, 4, 4],
    );
  });

  it("is heard by another process for every put of a gathered statement", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => String(500 + i));
    await Promise.all(ids.map((id) => storage.statuses.put(makeStatus({ id, accountId: "30" }))));
    // The other process keeps them (its row memo), then they are edited together here.
    assert.equal((await other.statuses.getMany(ids)).size, 20);
    await Promise.all(
      ids.map((id) =>
        storage.statuses.put(makeStatus({ id, accountId: "30", text: `edited ${id}` })),
      ),
    );
    const seen = await eventually(
      () => other.statuses.getMany(ids),
      (got) => [...got.values()].every((s) => s.text.startsWith("edited")),
    );
    assert.deepEqual(
      ids.map((id) => seen.get(id)?.text),
      ids.map((id) => `edited ${id}`),
    );
  });
});
