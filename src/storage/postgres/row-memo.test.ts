// Statuses kept by id (row-memo.ts): a write forgets only the rows it names, a load that raced a
// write to a row does not keep it; and, on a real database, another process's edit, delete or
// creation of a status reaches this one's memo through the change notification naming the row.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { createChanges, parseChange } from "./changes.ts";
import { connectPostgres } from "./connect.ts";
import { createRowMemo } from "./row-memo.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

/** A load of many keys that counts what it was asked and answers `{ key, n }` per key. */
function countingLoad() {
  const asked: string[][] = [];
  return {
    asked,
    load: async (keys: string[]) => {
      asked.push(keys);
      return new Map(keys.map((key) => [key, { key, n: asked.length }]));
    },
  };
}

describe("row memo", () => {
  it("forgets only the rows a write names; a write naming none, everything", async () => {
    const changes = createChanges();
    const memo = createRowMemo<{ key: string; n: number }>(changes, "statuses");
    const counter = countingLoad();
    await memo.getMany(["1", "2", "3"], counter.load);
    const before = changes.version;
    changes.rows("statuses", ["2"]);
    assert.equal(changes.version, before + 1);
    changes.bump("accounts");
    const found = await memo.getMany(["1", "2", "3"], counter.load);
    assert.deepEqual(counter.asked, [["1", "2", "3"], ["2"]]);
    assert.deepEqual(
      [...found.values()].map((r) => r.n),
      [1, 2, 1],
    );
    // This process's own write heard back forgets again, without moving the version.
    changes.rows("statuses", ["1"], true);
    assert.equal(changes.version, before + 2);
    await memo.getMany(["1", "2"], counter.load);
    assert.deepEqual(counter.asked.at(-1), ["1"]);
    changes.bump("statuses");
    await memo.getMany(["1", "2"], counter.load);
    assert.deepEqual(counter.asked.at(-1), ["1", "2"]);
    changes.bumpAll();
    await memo.getMany(["3"], counter.load);
    assert.deepEqual(counter.asked.at(-1), ["3"]);
  });

  it("does not keep a row written while it was being read, and keeps the others", async () => {
    const changes = createChanges();
    const memo = createRowMemo<{ key: string; n: number }>(changes, "statuses");
    const counter = countingLoad();
    await memo.getMany(["1", "2"], async (keys) => {
      const loaded = await counter.load(keys);
      changes.rows("statuses", ["2"]);
      return loaded;
    });
    await memo.getMany(["1", "2"], counter.load);
    assert.deepEqual(counter.asked, [["1", "2"], ["2"]]);
    // A single get raced by a write that names no rows.
    const raced = await memo.get("9", async () => {
      changes.bumpAll();
      return { key: "9", n: 0 };
    });
    assert.equal(raced?.n, 0);
    assert.equal((await memo.get("9", async () => ({ key: "9", n: 1 })))?.n, 1);
    assert.equal((await memo.get("9", async () => assert.fail("asked again")))?.n, 1);
  });

  it("keeps what a caller's own statement read back, unless a write named it meanwhile", async () => {
    const changes = createChanges();
    const memo = createRowMemo<{ key: string; n: number }>(changes, "statuses");
    const read = (key: string, n: number) => new Map([[key, { key, n }]]);
    // Untouched while it ran: kept, even past the caller's own forgetting after end().
    const first = memo.watchLoad(["1"]);
    const keepFirst = first.end();
    changes.rows("statuses", ["1"]);
    keepFirst(read("1", 7));
    assert.equal((await memo.get("1", async () => assert.fail("asked again")))?.n, 7);
    // Another write named it while the statement ran: not kept.
    const second = memo.watchLoad(["2", "3"]);
    changes.rows("statuses", ["2"], true);
    second.end()(new Map([...read("2", 1), ...read("3", 1)]));
    assert.equal((await memo.get("2", async () => ({ key: "2", n: 2 })))?.n, 2);
    assert.equal((await memo.get("3", async () => assert.fail("asked again")))?.n, 1);
    // A write naming no rows meanwhile: nothing kept.
    const third = memo.watchLoad(["4"]);
    changes.bumpAll();
    third.end()(read("4", 1));
    assert.equal((await memo.get("4", async () => ({ key: "4", n: 2 })))?.n, 2);
  });

  it("keeps that a row is missing until that row is written, frozen records", async () => {
    const changes = createChanges();
    const memo = createRowMemo<{ tags: string[] }>(changes, "statuses");
    assert.equal(await memo.get("5", async () => undefined), undefined);
    assert.equal(await memo.get("5", async () => assert.fail("asked again")), undefined);
    changes.rows("statuses", ["5"]);
    const record = await memo.get("5", async () => ({ tags: ["a"] }));
    assert.throws(() => record?.tags.push("x"), TypeError);
  });

  it("reads the rows off a notification", () => {
    assert.deepEqual(parseChange("wren-1|statuses:12,345"), {
      writer: "wren-1",
      table: "statuses",
      ids: ["12", "345"],
    });
    assert.deepEqual(parseChange("wren-1|statuses"), { writer: "wren-1", table: "statuses" });
  });
});

describe("postgres status memo across processes", () => {
  const processes = twoProcessesOnOneDatabase(4);

  it("sees another process's edit, deletion and creation of a status", async () => {
    const { a, b } = processes;
    await a.statuses.put(makeStatus({ id: "10", accountId: "1", text: "first" }));
    await a.statuses.put(makeStatus({ id: "11", accountId: "1", text: "other" }));
    assert.equal((await b.statuses.get("10"))?.text, "first");
    assert.equal((await b.statuses.getMany(["10", "11"])).size, 2);
    // b keeps that 12 does not exist, until a creates it.
    assert.equal(await b.statuses.get("12"), undefined);

    await a.statuses.put(makeStatus({ id: "10", accountId: "1", text: "edited" }));
    assert.equal((await a.statuses.get("10"))?.text, "edited");
    await eventually(
      () => b.statuses.get("10"),
      (s) => s?.text === "edited",
    );
    assert.equal((await b.statuses.getMany(["10"])).get("10")?.text, "edited");

    await a.statuses.put(makeStatus({ id: "12", accountId: "1", text: "new" }));
    await eventually(
      () => b.statuses.get("12"),
      (s) => s?.text === "new",
    );

    assert.equal(await a.statuses.delete("11"), true);
    assert.equal(await a.statuses.get("11"), undefined);
    await eventually(
      () => b.statuses.getMany(["10", "11"]),
      (found) => !found.has("11") && found.has("10"),
    );
  });

  it("sees a write made in SQL alone, rows named or not", async () => {
    const { a, b } = processes;
    await a.statuses.put(makeStatus({ id: "20", accountId: "1", text: "one" }));
    assert.equal((await b.statuses.get("20"))?.text, "one");
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      await sql`update statuses set data = jsonb_set(data, '{text}', '"two"') where id = 20`;
      await eventually(
        () => b.statuses.get("20"),
        (s) => s?.text === "two",
      );
      await sql`truncate statuses`;
      await eventually(
        () => b.statuses.get("20"),
        (s) => s === undefined,
      );
    } finally {
      await sql.end();
    }
  });
});
