// PKCE (RFC 7636): the client proves at the token endpoint that it started the authorization.
// S256 is what clients use; `plain` is accepted for old clients that cannot hash.

import { createHash, timingSafeEqual } from "node:crypto";

export type CodeChallengeMethod = "S256" | "plain";

/** 43 to 128 characters from the unreserved set, for both verifiers and challenges. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

export function isPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

export function parseChallengeMethod(value: string | undefined): CodeChallengeMethod | null {
  if (value === undefined || value === "") return "plain"; // RFC 7636 §4.3 default
  if (value === "S256" || value === "plain") return value;
  return null;
}

export function verifierMatches(
  verifier: string,
  challenge: string,
  method: CodeChallengeMethod,
): boolean {
  if (!isPkceValue(verifier)) return false;
  const derived =
    method === "S256"
      ? createHash("sha256").update(verifier, "ascii").digest("base64url")
      : verifier;
  const a = Buffer.from(derived);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
