// Status ids (and the numeric tails of most status uris) as two unsigned 32-bit halves, so the
// status table (status-table.ts) holds them in typed arrays instead of one string each. Ids are
// canonical decimals below 2^63 (domain/ids.ts mints ms << 16 | sequence); for canonical
// decimals, comparing the halves is the same order as compareIds. Anything else (ids made by
// hand in tests, an imported id with a leading zero) has a high half at or above ODD and is kept
// by the caller as a string.

/** High halves at or above this are not numbers: the low half indexes a string table. */
export const ODD = 0x80000000;
/** High half of "no id" (a status that is not a reply, not a reblog). */
export const NONE = 0xffffffff;

const TWO_32 = 4294967296;

/** The halves of the last decimal parseDecimal accepted (no allocation per parse). */
export const parsed = { hi: 0, lo: 0 };

/** True, with the halves in `parsed`, when `text` is a canonical decimal below 2^63. */
export function parseDecimal(text: string): boolean {
  const n = text.length;
  if (n === 0 || n > 19 || (n > 1 && text.charCodeAt(0) === 48)) return false;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < n; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    lo = lo * 10 + digit;
    hi *= 10;
    if (lo >= TWO_32) {
      const carry = Math.floor(lo / TWO_32);
      lo -= carry * TWO_32;
      hi += carry;
    }
  }
  if (hi >= ODD) return false;
  parsed.hi = hi;
  parsed.lo = lo;
  return true;
}

/** The decimal of hi * 2^32 + lo (hi below ODD). */
export function formatDecimal(hi: number, lo: number): string {
  if (hi < 0x200000) return String(hi * TWO_32 + lo);
  // Past 2^53 a double is not exact: long division by 10^9 in 16-bit steps keeps every
  // intermediate below 2^53.
  const qHi = Math.floor(hi / 1e9);
  let r = hi - qHi * 1e9;
  let t = r * 65536 + (lo >>> 16);
  const q1 = Math.floor(t / 1e9);
  r = t - q1 * 1e9;
  t = r * 65536 + (lo & 0xffff);
  const q2 = Math.floor(t / 1e9);
  r = t - q2 * 1e9;
  return `${qHi * TWO_32 + q1 * 65536 + q2}${String(r).padStart(9, "0")}`;
}

/** A 32-bit hash of two 32-bit values (murmur3's finaliser), for the open-addressing tables. */
export function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h ^ b, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}

/** FNV-1a over the UTF-16 code units. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
