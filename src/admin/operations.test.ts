// The operations are found by name through their prefix (operations.ts loads only the groups
// that may define it): every operation of every group must be found, as itself, and names no
// group defines must not.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findOperation, OPERATION_GROUPS } from "./operations.ts";

describe("admin operations by name", () => {
  it("finds every operation of every group, and each name in one group only", async () => {
    const seen = new Set<string>();
    for (const group of OPERATION_GROUPS) {
      for (const [name, operation] of Object.entries(await group())) {
        assert.equal(seen.has(name), false, `${name} is defined twice`);
        seen.add(name);
        assert.equal(await findOperation(name), operation, name);
      }
    }
    assert.ok(seen.size > 50, `only ${seen.size} operations`);
  });

  it("finds nothing for unknown names and inherited properties", async () => {
    for (const name of ["account.nope", "nope.list", "", "account", "constructor", "__proto__"]) {
      assert.equal(await findOperation(name), undefined, name);
    }
    assert.equal(await findOperation("toString.x"), undefined);
  });
});
