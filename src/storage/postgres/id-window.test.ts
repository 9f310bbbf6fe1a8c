// Id windows whose bounds lie past the largest bigint (the HTTP layer accepts ids of up to 25
// digits): such a max_id bounds nothing, and nothing lies above such a since_id or min_id.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import postgres from "postgres";
import { makeEdge } from "../contract/fixtures.ts";
import type { Storage } from "../ports.ts";
import { idWindow, openWindow, pageCanHold } from "./id-window.ts";
import { openPostgresStorage } from "./index.ts";
import { createTempDatabase, type TempDatabase } from "./testing/temp-database.ts";

const HUGE = "9".repeat(25);
const LARGEST_BIGINT = "9223372036854775807";

describe("postgres: id windows past the bigint range", () => {
  let database: TempDatabase;
  let storage: Storage;

  before(async () => {
    database = await createTempDatabase();
    storage = await openPostgresStorage({ url: database.url, poolMax: 2 });
    await storage.bookmarks.put(makeEdge({ id: "10", accountId: "1", targetId: "2" }));
    await storage.bookmarks.put(makeEdge({ id: LARGEST_BIGINT, accountId: "1", targetId: "3" }));
  });
  after(async () => {
    await storage?.close();
    await database?.drop();
  });

  const ids = async (page: { maxId?: string; sinceId?: string; minId?: string }) =>
    (await storage.bookmarks.listFrom("1", { limit: 40, ...page })).map((e) => e.id);

  it("a max_id past the range keeps every edge, the largest bigint too", async () => {
    assert.deepEqual(await ids({ maxId: HUGE }), [LARGEST_BIGINT, "10"]);
    assert.deepEqual(await ids({ maxId: LARGEST_BIGINT }), ["10"]);
  });

  it("a since_id or min_id at or past the largest bigint leaves nothing", async () => {
    assert.deepEqual(await ids({ sinceId: HUGE }), []);
    assert.deepEqual(await ids({ minId: HUGE }), []);
    assert.deepEqual(await ids({ sinceId: LARGEST_BIGINT }), []);
    assert.deepEqual(await ids({ minId: "10" }), [LARGEST_BIGINT]);
  });
});

describe("postgres: pageCanHold answers as idWindow does, without the SQL", () => {
  it("is false exactly where idWindow has no window", () => {
    const sql = postgres("postgres://unused.invalid/none", { max: 1 });
    const pages = [
      { limit: 20 },
      { limit: 0 },
      { limit: 20, maxId: HUGE },
      { limit: 20, sinceId: HUGE },
      { limit: 20, minId: LARGEST_BIGINT },
      { limit: 20, sinceId: "5", maxId: "6" },
      { limit: 20, sinceId: "5", maxId: "7" },
      { limit: 20, maxId: "0050" },
    ];
    for (const page of pages) {
      assert.equal(pageCanHold(page), idWindow(sql, page) !== undefined, JSON.stringify(page));
    }
    assert.deepEqual(
      pages.map((page) => pageCanHold(page)),
      [true, false, true, false, false, false, true, true],
    );
    assert.throws(() => openWindow(sql, { limit: 0 }));
  });
});
