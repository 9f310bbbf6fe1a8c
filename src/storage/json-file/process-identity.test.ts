import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatIdentity, ownIdentity, parseIdentity } from "./process-identity.ts";

describe("process identity of the lock file", () => {
  it("writes the pid first and reads back what it wrote", () => {
    const identity = { pid: 42, start: "123456", boot: "5f1c0d7e-aaaa-bbbb-cccc-0123456789ab" };
    const text = formatIdentity(identity);
    assert.equal(text.split("\n")[0], "42");
    assert.deepEqual(parseIdentity(text), identity);
    assert.deepEqual(parseIdentity(formatIdentity(ownIdentity())), ownIdentity());
  });

  it("reads an older lock's bare pid, and nothing from text without one", () => {
    assert.deepEqual(parseIdentity("1\n"), { pid: 1 });
    assert.equal(parseIdentity(""), null);
    assert.equal(parseIdentity("start 5\n"), null);
    assert.equal(parseIdentity("0\n"), null);
  });
});
