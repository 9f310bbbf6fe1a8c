// Writes of the key–value store counted by the family of their key (its first two segments, e.g.
// ["wren", "ipBlock"]), for KvStore.version(prefix): a list of a few entries read on every request
// (the IP blocks) is kept until its own family is written, not until any entry is — a preview
// card, the daily activity mark or one of Fedify's caches is written far more often. Families
// share a fixed number of counters by hash (bounded: a family per account, as web sessions have,
// costs nothing); two families on one counter only re-read each other's lists.

const SLOTS = 256;

export interface KvWriteCounts {
  /** A write (or removal) of the entries of `keys` was applied. */
  wrote(keys: readonly (readonly string[])[]): void;
  /** Writes so far that may have touched entries under `prefix` (all writes for a short prefix). */
  count(prefix: readonly string[]): number;
}

/**
 * The counter of a key's family: FNV-1a over its first two segments. Asked on every request (the
 * IP-block check), so a plain arithmetic hash, not a digest: an md5 here was 2% of a post's CPU.
 * Nothing depends on the spread beyond sharing counters now and then.
 */
function slotOf(segments: readonly string[]): number {
  let hash = 0x811c9dc5;
  const family = `${segments[0] ?? ""}\u001f${segments[1] ?? ""}`;
  for (let i = 0; i < family.length; i++) {
    hash = Math.imul(hash ^ family.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0) % SLOTS;
}

export function createKvWriteCounts(): KvWriteCounts {
  const slots = new Array<number>(SLOTS).fill(0);
  let all = 0;
  return {
    wrote(keys) {
      all += 1;
      for (const slot of new Set(keys.map(slotOf))) slots[slot] = (slots[slot] ?? 0) + 1;
    },
    count(prefix) {
      return prefix.length < 2 ? all : (slots[slotOf(prefix)] ?? 0);
    },
  };
}
