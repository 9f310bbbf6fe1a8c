// Records of rarely written tables (accounts, users, apps, access tokens) kept in this process
// between reads: every signed-in request reads its token, app, user and account, and every page
// of statuses its authors, which on PostgreSQL cost a statement each, where json-file answers
// from memory. A memo is dropped whole when its table's version moves (changes.ts): at once for
// this process's own writes, and on the change notification for other processes' — the same
// bound as the kept API answers (ADR 0020). A load that raced a write is not kept. That a record
// is missing is kept too (a page's local authors are each asked for their user), emptied alike.

import { deepFreeze } from "../../domain/deep-freeze.ts";
import { LruCache } from "../../domain/lru-cache.ts";
import type { Changes } from "./changes.ts";

/** Records kept per memo at most (the least recently used go first). */
const CAPACITY = 20_000;

/** Kept for a key known to have no record. */
export const MISSING = Symbol("missing");

/** The records `cache` keeps of `keys`, and the keys it knows nothing of. */
export function lookUp<T>(
  cache: LruCache<string, T | typeof MISSING>,
  keys: readonly string[],
): { found: Map<string, T>; missing: string[] } {
  const found = new Map<string, T>();
  const missing: string[] = [];
  for (const key of keys) {
    const kept = cache.get(key);
    if (kept === undefined) missing.push(key);
    else if (kept !== MISSING) found.set(key, kept);
  }
  return { found, missing };
}

/** The records found, in the order of `keys` (as the stores answer getMany). */
export function inOrder<T>(keys: readonly string[], found: Map<string, T>): Map<string, T> {
  return new Map(
    keys.flatMap((key) => {
      const record = found.get(key);
      return record === undefined ? [] : [[key, record] as const];
    }),
  );
}

export interface RecordMemo<T> {
  /** The record under `key`, loaded by `load` unless kept. */
  get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined>;
  /** The records under `keys`; `load` is asked only for the keys not kept. */
  getMany(
    keys: readonly string[],
    load: (missing: string[]) => Promise<Map<string, T>>,
  ): Promise<Map<string, T>>;
}

export function createRecordMemo<T extends object>(
  changes: Changes,
  table: string,
  capacity = CAPACITY,
): RecordMemo<T> {
  let cache = new LruCache<string, T | typeof MISSING>(capacity);
  let seen = changes.tableVersion(table);

  /** The table's version now, with the memo emptied if it moved since last asked. */
  function current(): number {
    const version = changes.tableVersion(table);
    if (version !== seen) {
      cache = new LruCache(capacity);
      seen = version;
    }
    return version;
  }

  function keep(version: number, key: string, record: T | undefined): void {
    if (changes.tableVersion(table) !== version) return;
    // Kept records are shared by every later reader: frozen, as json-file's are.
    cache.set(key, record === undefined ? MISSING : deepFreeze(record));
  }

  return {
    async get(key, load) {
      const version = current();
      const kept = cache.get(key);
      if (kept !== undefined) return kept === MISSING ? undefined : kept;
      const record = await load();
      keep(version, key, record);
      return record;
    },
    async getMany(keys, load) {
      const version = current();
      const { found, missing } = lookUp(cache, keys);
      if (missing.length > 0) {
        const loaded = await load(missing);
        for (const key of missing) {
          const record = loaded.get(key);
          keep(version, key, record);
          if (record !== undefined) found.set(key, record);
        }
      }
      // Nothing loaded: `found` is in the keys' order already.
      return missing.length === 0 ? found : inOrder(keys, found);
    },
  };
}
