import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ALL_SCOPES,
  parseScopes,
  scopeAdmits,
  scopesAdmit,
  scopesWithin,
  unknownScopes,
} from "./scopes.ts";

describe("scopeAdmits", () => {
  it("lets a top-level scope admit its granular children", () => {
    assert.equal(scopeAdmits(["read"], "read:statuses"), true);
    assert.equal(scopeAdmits(["write"], "write:media"), true);
    assert.equal(scopeAdmits(["admin:read"], "admin:read:accounts"), true);
    assert.equal(scopeAdmits(["admin:write"], "admin:write:reports"), true);
  });

  it("does not let a granular scope admit its parent or a sibling", () => {
    assert.equal(scopeAdmits(["read:statuses"], "read"), false);
    assert.equal(scopeAdmits(["read:statuses"], "read:accounts"), false);
    assert.equal(scopeAdmits(["admin:read:accounts"], "admin:read"), false);
  });

  it("keeps read, write and admin apart", () => {
    assert.equal(scopeAdmits(["read"], "write:statuses"), false);
    assert.equal(scopeAdmits(["write"], "read:statuses"), false);
    assert.equal(scopeAdmits(["read"], "admin:read:accounts"), false);
    assert.equal(scopeAdmits(["admin:read"], "admin:write:accounts"), false);
  });

  it("does not treat a name prefix as a parent (read: is not reads)", () => {
    assert.equal(scopeAdmits(["read"], "readx"), false);
    assert.equal(scopeAdmits(["write"], "write_statuses"), false);
    // "admin" alone is not a scope, so it can never be granted and admit admin:read.
    assert.deepEqual(unknownScopes(["admin"]), ["admin"]);
  });

  it("lets the legacy follow scope admit the follow, block and mute families only", () => {
    for (const s of [
      "read:follows",
      "write:follows",
      "read:blocks",
      "write:blocks",
      "read:mutes",
      "write:mutes",
    ]) {
      assert.equal(scopeAdmits(["follow"], s), true, s);
    }
    assert.equal(scopeAdmits(["follow"], "read:statuses"), false);
    assert.equal(scopeAdmits(["follow"], "write:statuses"), false);
    assert.equal(scopeAdmits(["read:follows"], "follow"), false);
  });
});

describe("scopesAdmit", () => {
  it("accepts when any alternative is admitted", () => {
    assert.equal(scopesAdmit(["profile"], ["profile", "read:accounts"]), true);
    assert.equal(scopesAdmit(["read"], ["profile", "read:accounts"]), true);
    assert.equal(scopesAdmit(["write"], ["profile", "read:accounts"]), false);
    assert.equal(scopesAdmit([], ["read"]), false);
  });
});

describe("scopesWithin", () => {
  it("checks requested scopes against registered ones", () => {
    assert.equal(scopesWithin(["read:statuses", "write"], ["read", "write"]), true);
    assert.equal(scopesWithin(["read", "push"], ["read", "write"]), false);
    assert.equal(scopesWithin(["read"], ["read:statuses"]), false);
  });
});

describe("parseScopes and unknownScopes", () => {
  it("splits on spaces and pluses, drops duplicates, defaults to read", () => {
    assert.deepEqual(parseScopes("read  write+follow read"), ["read", "write", "follow"]);
    assert.deepEqual(parseScopes(""), ["read"]);
    assert.deepEqual(parseScopes(undefined), ["read"]);
  });

  it("names the scopes the server does not know", () => {
    assert.deepEqual(unknownScopes(["read", "write:nonsense", "push", "bogus"]), [
      "write:nonsense",
      "bogus",
    ]);
    assert.equal(ALL_SCOPES.has("admin:read:canonical_email_blocks"), true);
    assert.equal(ALL_SCOPES.has("read:media"), false);
  });
});
