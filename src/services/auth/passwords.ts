// Password hashing with scrypt (memory-hard, built into Node). Stored as
// `scrypt$N$r$p$salt$hash` so the cost can be raised later without breaking old hashes.

import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/**
 * scrypt's cost as log2 of N (N = 2^15, r = 8: 32 MiB and tens of milliseconds a hash). New
 * hashes use WREN_PASSWORD_HASH_COST, this by default; only the tests lower it, where every test
 * user costs a hash.
 */
export const DEFAULT_PASSWORD_HASH_COST = 15;
/** The highest WREN_PASSWORD_HASH_COST accepted (src/config/schema.ts; the lowest is 10). */
export const MAX_PASSWORD_HASH_COST = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
// scrypt needs 128 * N * r bytes; allow headroom over Node's 32 MiB default, up to the highest cost.
const MAX_MEMORY = 2 * 128 * 2 ** MAX_PASSWORD_HASH_COST * R;

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 72;

export async function hashPassword(
  password: string,
  cost: number = DEFAULT_PASSWORD_HASH_COST,
): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAX_MEMORY });
  return ["scrypt", N, R, P, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await scrypt(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
