// The key–value store port (split from ports.ts, which re-exports it): Fedify's caches and key
// pairs, and the small records that need no store of their own (budgets, cards, invites).

/** One entry of the key–value store (protocol caches, key pairs, idempotence marks). */
export interface KvEntry {
  /** A path of one or more non-empty segments, e.g. `["_fedify", "remoteDocument", url]`. */
  key: readonly string[];
  /** Any JSON value. */
  value: unknown;
  /** ISO time after which the entry counts as absent; null: kept until deleted. */
  expiresAt: string | null;
}

/**
 * A durable key–value store, the persistence behind Fedify's KvStore. Expiry is the caller's
 * to apply (it owns the clock): entries past `expiresAt` are still returned until pruned.
 */
export interface KvStore {
  get(key: readonly string[]): Promise<KvEntry | undefined>;
  /** The entries of `keys`, in the same order (undefined where absent): one read for a page. */
  getMany(keys: readonly (readonly string[])[]): Promise<(KvEntry | undefined)[]>;
  /** Creates or replaces the entry. */
  set(entry: KvEntry): Promise<void>;
  /** Removes the entry; false when there was none. */
  delete(key: readonly string[]): Promise<boolean>;
  /**
   * Writes `next` only if the current value of its key equals `expected` (equal JSON values,
   * object keys in any order; undefined: only if absent), atomically with respect to other
   * writes of the key; an undefined `next.value` removes the entry. An entry
   * expired at `now` (ISO) counts as absent. True when it wrote.
   */
  compareAndSet(expected: unknown, next: KvEntry, now: string): Promise<boolean>;
  /**
   * A number that moves whenever this process writes or removes an entry under `prefix` (or,
   * for a prefix of fewer than two segments, any entry; an entry of the same first two segments
   * as the prefix, or sharing their counter, may move it too: kv-write-counts.ts), and when
   * another process sharing the storage writes one of the entries that signal their changes
   * (PostgreSQL: domain blocks, trend reviews and IP blocks, migrations 0005, 0034, 0040): a list
   * of those under `prefix` read while it held one value is exact while it holds it. For memos of
   * a few entries read on every request (services/address-blocks/ip-blocks.ts), which
   * Storage.version() would empty on every write of any kind, and a version of the whole store on
   * every preview card, activity mark or Fedify cache written.
   */
  version(prefix: readonly string[]): number;
  /** Entries whose key starts with all of `prefix`'s segments (all entries for []), by key. */
  list(prefix: readonly string[]): Promise<KvEntry[]>;
  /** Removes entries that expired before `now` (ISO); returns how many. */
  pruneExpired(now: string): Promise<number>;
}
