import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { perOwner } from "./per-owner.ts";

describe("perOwner", () => {
  it("makes one value per owner, on first use", () => {
    let made = 0;
    const ownValue = perOwner<object, { n: number }>(() => ({ n: ++made }));
    const [a, b] = [{}, {}];
    assert.equal(made, 0);
    assert.equal(ownValue(a), ownValue(a));
    assert.notEqual(ownValue(a), ownValue(b));
    assert.equal(made, 2);
  });
});
