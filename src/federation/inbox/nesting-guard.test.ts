import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jsonNesting, MAX_INBOX_NESTING, refuseDeepInboxBody } from "./nesting-guard.ts";

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("inbox nesting guard", () => {
  it("measures nesting of objects and arrays, ignoring brackets inside strings", () => {
    assert.equal(jsonNesting('{"a":[1,{"b":2}]}', 100), 3);
    assert.equal(jsonNesting('{"a":"[[[{{{\\"]]]"}', 100), 1);
    assert.equal(jsonNesting("42", 100), 0);
    // Stops counting once past the limit.
    assert.equal(jsonNesting(nested(10_000), 10), 11);
  });

  it("refuses deep inbox POSTs with 400 and lets everything else through", async () => {
    const post = (path: string, body: string) =>
      new Request(`https://wren.example${path}`, { method: "POST", body });
    const deep = nested(MAX_INBOX_NESTING + 1);
    for (const path of ["/inbox", "/users/alice/inbox"]) {
      assert.equal((await refuseDeepInboxBody(post(path, deep)))?.status, 400, path);
      assert.equal(await refuseDeepInboxBody(post(path, nested(MAX_INBOX_NESTING))), null);
    }
    assert.equal(await refuseDeepInboxBody(post("/api/v1/statuses", deep)), null);
    // The request body stays readable for Fedify after the check.
    const kept = post("/inbox", '{"type":"Create"}');
    assert.equal(await refuseDeepInboxBody(kept), null);
    assert.equal(await kept.text(), '{"type":"Create"}');
  });
});
