// PKCE (RFC 7636): the client proves at the token endpoint that it started the authorization.
// Only S256 is accepted, as Mastodon does: `plain` sends the verifier itself through the browser,
// so an intercepted authorization request would hand over the proof with the code.

import { createHash, timingSafeEqual } from "node:crypto";

export type CodeChallengeMethod = "S256";

/** 43 to 128 characters from the unreserved set, for both verifiers and challenges. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

export function isPkceValue(value: string): boolean {
  return PKCE_VALUE.test(value);
}

/**
 * S256, or null for anything else. A missing method is refused too rather than read as RFC
 * 7636's `plain` default: Doorkeeper (Mastodon's OAuth library) refuses a challenge whose method
 * is missing or not among the configured ones, and Mastodon publishes S256 as its only one.
 */
export function parseChallengeMethod(value: string | undefined): CodeChallengeMethod | null {
  return value === "S256" ? value : null;
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!isPkceValue(verifier)) return false;
  const derived = createHash("sha256").update(verifier, "ascii").digest("base64url");
  const a = Buffer.from(derived);
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
