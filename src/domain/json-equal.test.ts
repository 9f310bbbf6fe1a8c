import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonEqual } from "./json-equal.ts";

describe("jsonEqual", () => {
  it("compares objects by keys and values, whatever the key order", () => {
    assert.equal(
      jsonEqual({ a: 1, b: [1, { c: "x", d: null }] }, { b: [1, { d: null, c: "x" }], a: 1 }),
      true,
    );
    assert.equal(jsonEqual({ a: 1, b: undefined }, { a: 1 }), true);
  });

  it("tells different values apart", () => {
    assert.equal(jsonEqual({ a: 1 }, { a: 2 }), false);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, b: 2 }), false);
    assert.equal(jsonEqual({ a: 1, c: 2 }, { a: 1, b: 2 }), false);
    assert.equal(jsonEqual([1, 2], [2, 1]), false);
    assert.equal(jsonEqual([1], { 0: 1 }), false);
    assert.equal(jsonEqual(null, {}), false);
    assert.equal(jsonEqual(undefined, null), false);
    assert.equal(jsonEqual("1", 1), false);
  });
});
