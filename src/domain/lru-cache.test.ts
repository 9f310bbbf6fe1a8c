import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LruCache } from "./lru-cache.ts";

describe("LruCache", () => {
  it("remembers what was set", () => {
    const cache = new LruCache<string, number>(10);
    cache.set("a", 1);
    cache.set("b", 2);
    assert.equal(cache.get("a"), 1);
    assert.equal(cache.get("b"), 2);
    assert.equal(cache.get("c"), undefined);
  });

  it("evicts the least recently used entry", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    assert.equal(cache.get("a"), 1); // a is now the most recent
    cache.set("c", 3);
    assert.equal(cache.get("b"), undefined);
    assert.equal(cache.get("a"), 1);
    assert.equal(cache.get("c"), 3);
    assert.equal(cache.size, 2);
  });

  it("never holds more than its capacity", () => {
    const cache = new LruCache<number, number>(100);
    for (let i = 0; i < 10_000; i++) cache.set(i, i);
    assert.ok(cache.size <= 100, `size ${cache.size}`);
    // The newest entries are there, the oldest are gone.
    assert.equal(cache.get(9_999), 9_999);
    assert.equal(cache.get(0), undefined);
  });

  it("keys on identity for objects, and keeps nothing with capacity 0", () => {
    const cache = new LruCache<object, string>(2);
    const key = {};
    cache.set(key, "kept");
    assert.equal(cache.get(key), "kept");
    assert.equal(cache.get({}), undefined);
    const none = new LruCache<string, number>(0);
    none.set("a", 1);
    assert.equal(none.get("a"), undefined);
  });

  it("always keeps the most recently used half of its capacity", () => {
    const capacity = 10;
    const cache = new LruCache<number, number>(capacity);
    const used: number[] = []; // most recent last, each key once
    let seed = 7;
    for (let step = 0; step < 5_000; step++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const key = seed % 40;
      if (cache.get(key) === undefined) cache.set(key, key * 2);
      const at = used.indexOf(key);
      if (at >= 0) used.splice(at, 1);
      used.push(key);
      assert.ok(cache.size <= capacity, `size ${cache.size} at step ${step}`);
      for (const recent of used.slice(-capacity / 2)) assert.equal(cache.get(recent), recent * 2);
    }
  });

  it("bounded by weight too, never holds more than its weight and keeps no value over half of it", () => {
    const cache = new LruCache<number, string>(1_000, { max: 100, of: (value) => value.length });
    let seed = 3;
    for (let step = 0; step < 5_000; step++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const key = seed % 60;
      // Values of 1 to 30 "bytes"; a key set again may change its weight.
      if (cache.get(key) === undefined || step % 7 === 0)
        cache.set(key, "x".repeat(1 + (seed % 30)));
      if (step % 11 === 0) cache.delete(seed % 60);
      assert.ok(cache.weight >= 0 && cache.weight <= 100, `weight ${cache.weight} at step ${step}`);
    }
    cache.set(-1, "y".repeat(51));
    assert.equal(cache.get(-1), undefined, "heavier than half the weight: not kept");
    const small = new LruCache<string, string>(1_000, { max: 10, of: (v) => v.length });
    small.set("a", "aaaa");
    small.set("a", "aa");
    assert.equal(small.weight, 2, "a value set again replaces its weight");
    small.set("b", "bbb");
    assert.equal(small.get("a"), "aa");
    assert.equal(small.weight, 5);
    small.delete("a");
    assert.equal(small.weight, 3);
  });
});
