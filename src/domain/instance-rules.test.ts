import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rulesFromTexts, ruleText } from "./instance-rules.ts";

describe("instance rule ids", () => {
  const rules = rulesFromTexts(["Be kind", "No spam"]);

  it("numbers the configured rules from 1 and finds them by that id", () => {
    assert.deepEqual(
      rules.map((r) => r.id),
      ["1", "2"],
    );
    assert.equal(ruleText(rules, "1"), "Be kind");
    assert.equal(ruleText(rules, "2"), "No spam");
  });

  it("finds kept ids that are no longer positions", () => {
    const kept = [
      { id: "2", text: "No spam", hint: "" },
      { id: "5", text: "Be kind", hint: "" },
    ];
    assert.equal(ruleText(kept, "5"), "Be kind");
    assert.equal(ruleText(kept, "1"), undefined);
  });

  it("names no rule for ids out of range or not in canonical form", () => {
    for (const id of ["0", "3", "01", "-1", "1.0", "", "x", "99999999999999999999"]) {
      assert.equal(ruleText(rules, id), undefined, id);
    }
  });
});
