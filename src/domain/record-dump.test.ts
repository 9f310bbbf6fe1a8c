import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { canonicalJson, compareDumpKeys, dumpKey } from "./record-dump.ts";

describe("record dump order and text", () => {
  it("writes objects with sorted keys at every depth, whatever order they were built in", () => {
    const a = { b: 1, a: { d: [{ z: 1, y: 2 }], c: null }, skipped: undefined };
    const b = { a: { c: null, d: [{ y: 2, z: 1 }] }, b: 1 };
    assert.equal(canonicalJson(a), canonicalJson(b));
    assert.equal(canonicalJson(a), '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it("orders numeric ids numerically, before other keys, which go by text", () => {
    const keys = ["media-cleanup-b", "110", "9", "media-cleanup-a", "1000"];
    assert.deepEqual(keys.sort(compareDumpKeys), [
      "9",
      "110",
      "1000",
      "media-cleanup-a",
      "media-cleanup-b",
    ]);
  });

  it("keys records without an id by what identifies them", () => {
    assert.equal(dumpKey("users", { accountId: "7" }), "7");
    assert.equal(dumpKey("markers", { accountId: "7", timeline: "home" }), "7/home");
    assert.equal(dumpKey("kv", { key: ["a", "b"] }), '["a","b"]');
    assert.equal(dumpKey("statuses", { id: "42" }), "42");
  });
});
