import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BoundedMemo } from "./bounded-memo.ts";

describe("BoundedMemo", () => {
  it("remembers what was set", () => {
    const memo = new BoundedMemo<string, number>(10);
    memo.set("a", 1);
    memo.set("b", 2);
    assert.equal(memo.get("a"), 1);
    assert.equal(memo.get("b"), 2);
    assert.equal(memo.get("c"), undefined);
  });

  it("never holds much more than twice its limit", () => {
    const memo = new BoundedMemo<number, number>(100);
    for (let i = 0; i < 10_000; i++) memo.set(i, i);
    assert.ok(memo.size <= 200, `size ${memo.size}`);
    // The newest entries are there, the oldest are gone.
    assert.equal(memo.get(9_999), 9_999);
    assert.equal(memo.get(0), undefined);
  });

  it("keeps entries that are used, forgets those that are not", () => {
    const memo = new BoundedMemo<number, string>(3);
    memo.set(1, "kept");
    memo.set(2, "dropped");
    memo.set(3, "x");
    // Fills the first generation: 1, 2, 3 move to the older one.
    memo.set(4, "y");
    assert.equal(memo.get(1), "kept"); // a hit moves 1 into the current generation
    memo.set(5, "z");
    memo.set(6, "w"); // current full (4, 1, 5): 2 and 3 are dropped with the older generation
    assert.equal(memo.get(1), "kept");
    assert.equal(memo.get(2), undefined);
  });
});
