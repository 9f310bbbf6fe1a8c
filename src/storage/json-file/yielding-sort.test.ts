// The sliced merge sort gives the same order as one sort (stable too), for any length around
// the slice boundaries, and lets timers run while it works.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds } from "../../domain/ids.ts";
import { sortYielding } from "./yielding-sort.ts";

/** A repeatable pseudo-random sequence (tests must not depend on luck). */
function numbers(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
}

describe("sortYielding", () => {
  it("orders like one sort, stably, whatever the length and slice", async () => {
    const next = numbers(7);
    for (const slice of [1, 3, 8]) {
      for (let length = 0; length <= 70; length++) {
        // Few distinct keys, so ties are common and stability shows.
        const items = Array.from({ length }, (_, at) => ({ key: String(next() % 40), at }));
        const byKey = (x: { key: string }, y: { key: string }) => compareIds(x.key, y.key);
        const expected = [...items].sort(byKey);
        const sorted = await sortYielding(items, byKey, slice);
        assert.equal(sorted, items, "sorted in place");
        assert.deepEqual(sorted, expected, `length ${length}, slice ${slice}`);
      }
    }
  });

  it("gives the event loop back between slices", async () => {
    const next = numbers(11);
    const ids = Array.from({ length: 20_000 }, () => String(1 + (next() % 1_000_000_000)));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const sorted = await sortYielding([...ids], compareIds, 256);
      assert.deepEqual(sorted, [...ids].sort(compareIds));
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks > 0, "a timer ran while sorting");
  });
});
