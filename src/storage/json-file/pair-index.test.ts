import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PairIndex } from "./pair-index.ts";

describe("PairIndex", () => {
  it("files a pair's edge id by account, then target, in that direction only", () => {
    const index = new PairIndex();
    index.set("1", "2", "10");
    index.set("1", "3", "11");
    assert.equal(index.get("1", "2"), "10");
    assert.equal(index.get("2", "1"), undefined);
    assert.deepEqual(
      [...(index.targetsOf("1") ?? [])],
      [
        ["2", "10"],
        ["3", "11"],
      ],
    );
    assert.equal(index.targetsOf("2"), undefined);
  });

  it("forgets a pair only while it names the edge removed, and an account with no edge left", () => {
    const index = new PairIndex();
    index.set("1", "2", "10");
    index.set("1", "2", "20"); // a newer edge of the pair replaces it
    index.delete("1", "2", "10"); // the older one's removal, arriving after
    assert.equal(index.get("1", "2"), "20");
    index.delete("1", "2", "20");
    assert.equal(index.get("1", "2"), undefined);
    assert.equal(index.targetsOf("1"), undefined);
  });
});
