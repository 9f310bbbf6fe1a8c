import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FixedWindows } from "./fixed-windows.ts";

describe("FixedWindows", () => {
  it("counts hits per key within a window and starts a new one after it", () => {
    const windows = new FixedWindows(60, 10);
    assert.equal(windows.hit("a", 0).used, 1);
    assert.equal(windows.hit("a", 59_999).used, 2);
    assert.equal(windows.peek("a", 59_999)?.used, 2);
    assert.equal(windows.peek("a", 60_000), undefined);
    assert.equal(windows.hit("a", 60_000).used, 1);
  });

  it("never tracks more keys than its cap, dropping finished windows, then the oldest", () => {
    const windows = new FixedWindows(60, 3);
    windows.hit("finished", 0);
    windows.hit("old", 30_000);
    windows.hit("older-but-live", 30_000);
    windows.hit("new", 61_000);
    assert.equal(windows.size, 3);
    assert.equal(windows.peek("finished", 61_000), undefined);
    assert.equal(windows.peek("old", 61_000)?.used, 1);
    windows.hit("newer", 62_000);
    assert.equal(windows.size, 3);
    assert.equal(windows.peek("old", 62_000), undefined, "the oldest live window goes first");
    for (let i = 0; i < 1000; i++) windows.hit(`caller-${i}-${"x".repeat(1000)}`, 63_000);
    assert.equal(windows.size, 3);
  });

  it("counts a long key as itself, though it keeps only its digest", () => {
    const windows = new FixedWindows(60, 10);
    const long = `login:${"y".repeat(10_000)}`;
    windows.hit(long, 0);
    assert.equal(windows.hit(long, 1).used, 2);
    assert.equal(windows.peek(`${long}z`, 1), undefined);
  });
});
