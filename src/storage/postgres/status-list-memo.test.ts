// Pages of status lists kept per process (status-list-memo.ts): forgotten by the authors a write
// names or as the public timeline, whole when a write names nothing; a load raced by a write to
// what it reads is not kept; bounded. (Across processes on a real database: count-memos.test.ts.)

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createChanges } from "./changes.ts";
import { PUBLIC_TIMELINE, STATUS_ACCOUNTS } from "./count-signals.ts";
import { authorSource, createStatusListMemo, PUBLIC_SOURCE } from "./status-list-memo.ts";

/** A load that counts its calls and answers the call's number. */
function counting() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: async () => {
      calls += 1;
      return [{ n: calls }];
    },
  };
}

describe("status list memo", () => {
  it("forgets the pages of the authors a write names, the public ones on their signal", async () => {
    const changes = createChanges();
    const memo = createStatusListMemo(changes);
    const one = counting();
    const both = counting();
    const pub = counting();
    const read = () =>
      Promise.all([
        memo.get("one", [authorSource("1")], one.load),
        memo.get("both", [authorSource("1"), authorSource("2")], both.load),
        memo.get("public", [PUBLIC_SOURCE], pub.load),
      ]);
    await read();
    await read();
    assert.deepEqual([one.calls, both.calls, pub.calls], [1, 1, 1]);
    changes.rows(STATUS_ACCOUNTS, ["2"]);
    await read();
    assert.deepEqual([one.calls, both.calls, pub.calls], [1, 2, 1]);
    changes.bumpTable(PUBLIC_TIMELINE);
    await read();
    assert.deepEqual([one.calls, both.calls, pub.calls], [1, 2, 2]);
    // A status's row named: nothing of the lists. No rows named: everything.
    changes.rows("statuses", ["5"]);
    await read();
    assert.deepEqual([one.calls, both.calls, pub.calls], [1, 2, 2]);
    changes.bump("statuses");
    await read();
    assert.deepEqual([one.calls, both.calls, pub.calls], [2, 3, 3]);
    changes.bumpAll();
    await read();
    assert.deepEqual([one.calls, both.calls, pub.calls], [3, 4, 4]);
  });

  it("does not keep a page whose authors were written while it was read", async () => {
    const changes = createChanges();
    const memo = createStatusListMemo(changes);
    const raced = counting();
    await memo.get("page", [authorSource("1")], async () => {
      const page = await raced.load();
      changes.rows(STATUS_ACCOUNTS, ["1"]);
      return page;
    });
    await memo.get("page", [authorSource("1")], raced.load);
    await memo.get("page", [authorSource("1")], raced.load);
    assert.equal(raced.calls, 2);
    // Another author's write during a load leaves it kept.
    const other = counting();
    await memo.get("other", [authorSource("1")], async () => {
      changes.rows(STATUS_ACCOUNTS, ["3"]);
      return other.load();
    });
    await memo.get("other", [authorSource("1")], other.load);
    assert.equal(other.calls, 1);
  });

  it("keeps at most its capacity, the least recently used going first; frozen records", async () => {
    const memo = createStatusListMemo(createChanges(), 2);
    const load = counting();
    await memo.get("a", [], load.load);
    await memo.get("b", [], load.load);
    await memo.get("a", [], load.load);
    await memo.get("c", [], load.load);
    assert.equal(memo.size, 2);
    await memo.get("a", [], load.load);
    assert.equal(load.calls, 3);
    await memo.get("b", [], load.load);
    assert.equal(load.calls, 4);
    const [record] = await memo.get("b", [], load.load);
    assert.throws(() => {
      (record as { n: number }).n = 0;
    }, TypeError);
  });

  it("keeps at most its capacity of sources, summed over the pages", async () => {
    const memo = createStatusListMemo(createChanges(), 10, 3);
    const load = counting();
    await memo.get("a", [authorSource("1"), authorSource("2")], load.load);
    await memo.get("b", [authorSource("3"), authorSource("4")], load.load);
    assert.equal(memo.size, 1);
    await memo.get("b", [authorSource("3"), authorSource("4")], load.load);
    assert.equal(load.calls, 2);
    // A page reading from more than all of it is not kept.
    await memo.get("c", ["1", "2", "3", "4"].map(authorSource), load.load);
    await memo.get("c", ["1", "2", "3", "4"].map(authorSource), load.load);
    assert.equal(load.calls, 4);
  });
});
