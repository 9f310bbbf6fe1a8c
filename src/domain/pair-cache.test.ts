import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PairCache } from "./pair-cache.ts";

describe("PairCache", () => {
  it("keys on all three parts", () => {
    const cache = new PairCache<number>(10);
    cache.set("follows", "1", "2", 12);
    cache.set("follows", "2", "1", 21);
    cache.set("blocks", "1", "2", 99);
    assert.equal(cache.get("follows", "1", "2"), 12);
    assert.equal(cache.get("follows", "2", "1"), 21);
    assert.equal(cache.get("blocks", "1", "2"), 99);
    assert.equal(cache.get("mutes", "1", "2"), undefined);
    assert.equal(cache.get("follows", "1", "3"), undefined);
    // Parts are not joined into one key: "1 2" + "3" is not "1" + "2 3".
    cache.set("k", "1 2", "3", 1);
    assert.equal(cache.get("k", "1", "2 3"), undefined);
    assert.equal(cache.size, 4);
  });

  it("replaces and deletes an entry, counting it once", () => {
    const cache = new PairCache<string>(10);
    cache.set("follows", "1", "2", "a");
    cache.set("follows", "1", "2", "b");
    assert.equal(cache.get("follows", "1", "2"), "b");
    assert.equal(cache.size, 1);
    cache.delete("follows", "1", "2");
    cache.delete("follows", "1", "2");
    assert.equal(cache.get("follows", "1", "2"), undefined);
    assert.equal(cache.size, 0);
  });

  it("never holds more than its capacity, keeping the most recently used half", () => {
    const capacity = 10;
    const cache = new PairCache<number>(capacity);
    const used: number[] = []; // most recent last, each key once
    let seed = 11;
    for (let step = 0; step < 5_000; step++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const key = seed % 40;
      const parts = [`k${key % 3}`, `a${key % 5}`, String(key)] as const;
      if (cache.get(...parts) === undefined) cache.set(...parts, key * 2);
      const at = used.indexOf(key);
      if (at >= 0) used.splice(at, 1);
      if (step % 97 === 0) cache.delete(...parts);
      else used.push(key);
      assert.ok(cache.size <= capacity, `size ${cache.size} at step ${step}`);
      for (const recent of used.slice(-capacity / 2)) {
        assert.equal(cache.get(`k${recent % 3}`, `a${recent % 5}`, String(recent)), recent * 2);
      }
    }
  });

  it("keeps nothing with capacity 0", () => {
    const none = new PairCache<number>(0);
    none.set("a", "b", "c", 1);
    assert.equal(none.get("a", "b", "c"), undefined);
    assert.equal(none.size, 0);
  });
});
