import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isPkceValue, parseChallengeMethod, verifierMatches } from "./pkce.ts";

describe("PKCE", () => {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

  it("matches the RFC 7636 appendix B example for S256", () => {
    assert.equal(verifierMatches(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"), true);
    assert.equal(
      verifierMatches(`${verifier}x`, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"),
      false,
    );
  });

  it("never accepts the verifier itself as its challenge (the plain method)", () => {
    assert.equal(verifierMatches(verifier, verifier), false);
  });

  it("rejects verifiers outside 43..128 unreserved characters", () => {
    assert.equal(isPkceValue("a".repeat(42)), false);
    assert.equal(isPkceValue("a".repeat(129)), false);
    assert.equal(isPkceValue(`${"a".repeat(42)} `), false);
    assert.equal(verifierMatches("short", "short"), false);
  });

  it("accepts S256 only: plain, a missing method and other spellings are refused", () => {
    assert.equal(parseChallengeMethod("S256"), "S256");
    assert.equal(parseChallengeMethod("plain"), null);
    assert.equal(parseChallengeMethod(undefined), null);
    assert.equal(parseChallengeMethod(""), null);
    assert.equal(parseChallengeMethod("s256"), null);
  });
});
