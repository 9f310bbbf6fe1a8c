import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ruleIdAt, ruleText } from "./instance-rules.ts";

describe("instance rule ids", () => {
  const rules = ["Be kind", "No spam"];

  it("numbers the rules from 1 and finds them by that id", () => {
    assert.deepEqual(
      rules.map((_, i) => ruleIdAt(i)),
      ["1", "2"],
    );
    assert.equal(ruleText(rules, "1"), "Be kind");
    assert.equal(ruleText(rules, "2"), "No spam");
  });

  it("names no rule for ids out of range or not in canonical form", () => {
    for (const id of ["0", "3", "01", "-1", "1.0", "", "x", "99999999999999999999"]) {
      assert.equal(ruleText(rules, id), undefined, id);
    }
  });
});
