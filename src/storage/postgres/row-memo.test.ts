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

  it("keeps what a write's own statement read back, unless another write named it meanwhile", async () => {
    const changes = createChanges();
    const memo = createRowMemo<{ n: number }>(changes, "statuses");
    const own = (key: string) => () => changes.rows("statuses", [key]);
    const kept = (key: string) => memo.get(key, async () => ({ n: -1 }));
    // Untouched while it ran: kept, past the write's own telling of its change.
    memo.watchWrite("1").settle({ n: 7 }, 3, own("1"));
    assert.equal((await kept("1"))?.n, 7);
    // Another process's write named it while the statement ran: not kept.
    const raced = memo.watchWrite("2");
    changes.rows("statuses", ["2"], false);
    raced.settle({ n: 1 }, 5, own("2"));
    assert.equal((await kept("2"))?.n, -1);
    // A write naming no rows meanwhile: nothing kept.
    const blind = memo.watchWrite("3");
    changes.bumpAll();
    blind.settle({ n: 1 }, 5, own("3"));
    assert.equal((await kept("3"))?.n, -1);
  });

  it("keeps the later of two writes of one row in flight at once, whichever answers first", async () => {
    const changes = createChanges();
    const memo = createRowMemo<{ n: number }>(changes, "statuses");
    const own = (key: string) => () => changes.rows("statuses", [key]);
    const kept = (key: string) => memo.get(key, async () => ({ n: -1 }));
    // In the order they were versioned: each keeps its own; the second's telling drops the first.
    const [first, second] = [memo.watchWrite("1"), memo.watchWrite("1")];
    first.settle({ n: 1 }, 1, own("1"));
    second.settle({ n: 2 }, 2, own("1"));
    assert.equal((await kept("1"))?.n, 2);
    // The later answering first: the earlier, told after it, neither replaces it nor drops it,
    // even once the later is no longer kept (its version still rules the earlier out).
    const [earlier, later] = [memo.watchWrite("2"), memo.watchWrite("2")];
    later.settle({ n: 4 }, 4, own("2"));
    assert.equal((await kept("2"))?.n, 4);
    earlier.settle({ n: 3 }, 3, own("2"));
    assert.equal((await kept("2"))?.n, 4);
    const small = createRowMemo<{ n: number }>(changes, "statuses", { capacity: 1 });
    const [old, newer] = [small.watchWrite("3"), small.watchWrite("3")];
    newer.settle({ n: 6 }, 6, own("3"));
    for (const other of ["a", "b", "c"]) await small.get(other, async () => ({ n: 0 }));
    assert.equal(small.peek("3"), undefined);
    old.settle({ n: 5 }, 5, own("3"));
    assert.equal((await small.get("3", async () => ({ n: -1 })))?.n, -1);
    // An equal version (a write that changed no counter raises none) may hold other values:
    // neither is known to be the later, so neither is kept.
    const [one, other] = [memo.watchWrite("4"), memo.watchWrite("4")];
    one.settle({ n: 7 }, 7, own("4"));
    other.settle({ n: 8 }, 7, own("4"));
    assert.equal((await kept("4"))?.n, -1);
    // A plain load under way when a write settles read before it, maybe: not kept.
    let loaded = false;
    const loading = memo.get("5", async () => {
      memo.watchWrite("5").settle({ n: 9 }, 9, own("5"));
      loaded = true;
      return { n: 0 };
    });
    assert.equal((await loading)?.n, 0);
    assert.ok(loaded);
    assert.equal((await kept("5"))?.n, 9);
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
