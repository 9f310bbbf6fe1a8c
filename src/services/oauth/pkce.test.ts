import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { isPkceValue, parseChallengeMethod, verifierMatches } from "./pkce.ts";

describe("PKCE", () => {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

  it("matches the RFC 7636 appendix B example for S256", () => {
    assert.equal(
      verifierMatches(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "S256"),
      true,
    );
    assert.equal(
      verifierMatches(`${verifier}x`, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "S256"),
      false,
    );
  });

  it("compares plain challenges literally and never mixes methods", () => {
    assert.equal(verifierMatches(verifier, verifier, "plain"), true);
    const s256 = createHash("sha256").update(verifier).digest("base64url");
    assert.equal(verifierMatches(verifier, s256, "plain"), false);
    assert.equal(verifierMatches(verifier, verifier, "S256"), false);
  });

  it("rejects verifiers outside 43..128 unreserved characters", () => {
    assert.equal(isPkceValue("a".repeat(42)), false);
    assert.equal(isPkceValue("a".repeat(129)), false);
    assert.equal(isPkceValue(`${"a".repeat(42)} `), false);
    assert.equal(verifierMatches("short", "short", "plain"), false);
  });

  it("defaults the method to plain and rejects unknown methods", () => {
    assert.equal(parseChallengeMethod(undefined), "plain");
    assert.equal(parseChallengeMethod("S256"), "S256");
    assert.equal(parseChallengeMethod("s256"), null);
  });
});
