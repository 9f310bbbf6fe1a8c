import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { perOwner } from "./per-owner.ts";

describe("perOwner", () => {
  it("makes one value per owner, on first use", () => {
    let made = 0;
    const valueOf = perOwner<object, { n: number }>(() => ({ n: ++made }));
    const [a, b] = [{}, {}];
    assert.equal(made, 0);
    assert.equal(valueOf(a), valueOf(a));
    assert.notEqual(valueOf(a), valueOf(b));
    assert.equal(made, 2);
  });
});
