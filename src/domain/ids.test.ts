import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  compareIds,
  createIdGenerator,
  createIdSource,
  idFromTime,
  isId,
  timeFromId,
} from "./ids.ts";

describe("ids", () => {
  it("sort by creation time and stay unique within one millisecond", () => {
    let now = 1_700_000_000_000;
    const ids = createIdGenerator(() => now);
    const first = Array.from({ length: 1000 }, () => ids.next());
    now += 1;
    const later = ids.next();
    const all = [...first, later];
    assert.equal(new Set(all).size, all.length);
    const sorted = [...all].sort(compareIds);
    assert.deepEqual(sorted, all);
    assert.ok(all.every(isId));
  });

  it("never go backwards when the clock steps back", () => {
    let now = 1_700_000_000_500;
    const ids = createIdGenerator(() => now);
    const a = ids.next();
    now -= 400;
    const b = ids.next();
    assert.ok(compareIds(b, a) > 0);
  });

  it("of two slots never collide, and spill into the next millisecond when one is full", () => {
    const frozen = () => 1_700_000_000_000;
    const a = createIdGenerator(frozen, { slot: 1, slotBits: 8, floorMs: 0 });
    const b = createIdGenerator(frozen, { slot: 2, slotBits: 8, floorMs: 0 });
    const fromA = Array.from({ length: 600 }, () => a.next());
    const fromB = Array.from({ length: 600 }, () => b.next());
    assert.equal(new Set([...fromA, ...fromB]).size, 1200);
    assert.deepEqual([...fromA].sort(compareIds), fromA);
    // 256 per millisecond per slot: the 600th id is two milliseconds on.
    assert.equal(timeFromId(fromA[599] as string).getTime(), frozen() + 2);
    assert.equal(Number((BigInt(fromB[0] as string) & 0xffffn) >> 8n), 2);
  });

  it("start after their space's floor", () => {
    const ids = createIdGenerator(() => 1_000, { slot: 0, slotBits: 8, floorMs: 5_000 });
    assert.equal(timeFromId(ids.next()).getTime(), 5_001);
    assert.equal(ids.lastMs, 5_001);
  });

  it("share one sequence among the generators of one source, whatever their clocks", () => {
    const source = createIdSource();
    const a = source.generator(() => 1_700_000_000_000);
    const b = source.generator(() => 1_699_999_999_000);
    const all = Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).next());
    assert.equal(new Set(all).size, 200);
    assert.deepEqual([...all].sort(compareIds), all);
  });

  it("carry their creation time", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const id = createIdGenerator(() => at.getTime()).next();
    assert.equal(timeFromId(id).toISOString(), at.toISOString());
    assert.equal(compareIds(idFromTime(at), id), 0);
  });

  it("compare numerically, not as text", () => {
    assert.ok(compareIds("9", "10") < 0);
    assert.ok(compareIds("110", "109") > 0);
    assert.equal(compareIds("42", "42"), 0);
  });

  it("recognise only numeric ids", () => {
    for (const bad of ["", "0", "01", "abc", "1.5", "-1", "1e5", " 1"])
      assert.equal(isId(bad), false, bad);
  });
});
