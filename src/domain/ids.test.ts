import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareIds, createIdGenerator, idFromTime, isId, timeFromId } from "./ids.ts";

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
