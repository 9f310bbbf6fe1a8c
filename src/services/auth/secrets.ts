// Random secrets and their stored form. Tokens, codes and client secrets are handed out once and
// kept only as SHA-256 hashes: they are long random values, so a fast hash is enough (unlike
// passwords, see passwords.ts) and lets a token be found by its hash in one index lookup.

import { hash, randomBytes, timingSafeEqual } from "node:crypto";

/** A URL-safe random secret with `bytes` bytes of entropy (default 32: 256 bits). */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function hashSecret(secret: string): string {
  // The one-shot form: every request with a token hashes it, and a Hash object costs 3× as much.
  return hash("sha256", secret, "hex");
}

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashSecret(secret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
