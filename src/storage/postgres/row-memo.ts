// Records of a often-written table (statuses) kept in this process between reads, forgotten row
// by row: where record-memo.ts empties a whole table's memo on any write to it (fine for
// accounts, useless for statuses, written by every post), this one forgets only the rows a write
// names (Changes.watchRows: this process's writes as they resolve, other processes' when their
// change notification arrives, migration 0037). A write that names no rows (a bulk statement, an
// import, missed notifications) empties it whole. A load that raced a write to one of its rows
// does not keep that row. So a kept record outlives a write by no more than the notification's
// trip, the bound of the record memos and the kept answers (ADR 0020, ADR 0033).

import { deepFreeze } from "../../domain/deep-freeze.ts";
import { LruCache } from "../../domain/lru-cache.ts";
import type { Changes } from "./changes.ts";
import { inOrder, lookUp, MISSING, type RecordMemo } from "./record-memo.ts";

/** Records kept at most (the least recently used go first). */
const CAPACITY = 20_000;

/**
 * A load under way: the keys it asked for, and those written since it began. A write's own
 * read-back (watchWrite) is versioned: a write of this process that told its version meanwhile
 * raises its floor instead of making it stale.
 */
interface Load {
  keys: readonly string[];
  stale: Set<string> | "all";
  floors?: Map<string, number>;
}

export interface RowMemoOptions<T> {
  /** Records kept at most. */
  capacity?: number;
  /**
   * The key a row named by a write is kept under, when not the name itself (a memo of lists
   * of rows keeps each list under what the rows' names start with).
   */
  keyOf?: (name: string) => string;
  /** Whether a loaded record is worth its memory (not kept otherwise, asked again next time). */
  keeps?: (record: T) => boolean;
  /**
   * Of `tables`, those whose every change by this process is told as its write resolves, naming
   * every row it changed: their notifications heard back are not forgotten again (they would
   * drop what a write kept of its own result, watchWrite). Others are, as they may carry rows
   * the write did not name (a trigger's, or a statement outside the stores).
   */
  namedAtOnce?: readonly string[];
}

/**
 * `tables`: the tables (or named signals, changes.ts) whose row names are this memo's keys; a
 * memo of values read from several tables by one key (a status's counters) watches them all.
 */
export function createRowMemo<T extends object>(
  changes: Changes,
  tables: string | readonly string[],
  {
    capacity = CAPACITY,
    keyOf = (name) => name,
    keeps = () => true,
    namedAtOnce = [],
  }: RowMemoOptions<T> = {},
): RecordMemo<T> & {
  readonly size: number;
  /** What is kept of `key` now, without loading: a record, MISSING, or undefined (nothing). */
  peek(key: string): T | typeof MISSING | undefined;
  /**
   * A write's statement that reads `key` back with its version (a number the database raises
   * under the row's lock with every change of what is kept of it, so versions order the writes
   * of one row whichever answer arrives first), watched from now, before it is sent. Once it
   * resolved, `settle` runs `tell` (the write telling its own change to the memo's tables,
   * synchronously) and keeps `record` unless a later version is kept, or told while the write
   * ran, or another write not versioned (another process's, a deletion's) touched `key`
   * meanwhile. Other loads under way of `key` see the told change as any write's, except other
   * writes' read-backs, which are still kept if their version is higher. `abandon` (the
   * statement failed) stops watching.
   */
  watchWrite(key: string): {
    settle(record: T, version: number, tell: () => void): void;
    abandon(): void;
  };
} {
  let cache = new LruCache<string, T | typeof MISSING>(capacity);
  const loads = new Set<Load>();
  // The version of each record a write read back and kept (watchWrite); by the record, so it
  // goes with it.
  const versions = new WeakMap<object, number>();
  /** The version of what is kept of `key`: -1 when nothing is, or what is has none. */
  const keptVersion = (key: string) => {
    const kept = cache.get(key);
    return kept === undefined || kept === MISSING ? -1 : (versions.get(kept) ?? -1);
  };
  // The write settling now (watchWrite), while it tells its change: its key and version.
  let settling: { key: string; version: number } | undefined;

  const forget = (ids: readonly string[] | undefined) => {
    if (ids === undefined) {
      cache = new LruCache(capacity);
      for (const load of loads) load.stale = "all";
      return;
    }
    const keys = ids.map(keyOf);
    for (const key of keys) {
      const told = settling?.key === key ? settling.version : undefined;
      // A later version kept already stays (the settling write's own is older).
      if (told === undefined || keptVersion(key) <= told) cache.delete(key);
      for (const load of loads) {
        if (load.stale === "all" || !load.keys.includes(key)) continue;
        if (told !== undefined && load.floors) {
          load.floors.set(key, Math.max(told, load.floors.get(key) ?? -1));
        } else load.stale.add(key);
      }
    }
  };
  for (const table of typeof tables === "string" ? [tables] : tables) {
    const toldAtOnce = namedAtOnce.includes(table);
    changes.watchRows(table, (ids, heardBack) => {
      if (!(heardBack && toldAtOnce)) forget(ids);
    });
  }

  /** Runs `load` for `keys`, keeping what no write touched meanwhile. */
  async function loading<R>(
    keys: readonly string[],
    load: () => Promise<R>,
    found: (result: R, key: string) => T | undefined,
  ): Promise<R> {
    const entry: Load = { keys, stale: new Set() };
    loads.add(entry);
    try {
      const result = await load();
      const { stale } = entry;
      if (stale !== "all") {
        for (const key of keys) {
          if (stale.has(key)) continue;
          keep(key, found(result, key));
        }
      }
      return result;
    } finally {
      loads.delete(entry);
    }
  }

  /** Keeps `record` under `key` (frozen: kept records are shared by every later reader). */
  const keep = (key: string, record: T | undefined) => {
    if (record !== undefined && !keeps(record)) return;
    cache.set(key, record === undefined ? MISSING : deepFreeze(record));
  };

  return {
    get size() {
      return cache.size;
    },
    peek: (key) => cache.get(key),
    watchWrite(key) {
      const entry: Load = { keys: [key], stale: new Set(), floors: new Map() };
      loads.add(entry);
      return {
        settle(record, version, tell) {
          loads.delete(entry);
          settling = { key, version };
          try {
            tell();
          } finally {
            settling = undefined;
          }
          // An equal version told or kept by another write may still differ from this one (a
          // write that changed no counter raises none): neither is known to be the later.
          const raced =
            entry.stale === "all" ||
            entry.stale.has(key) ||
            version <= (entry.floors?.get(key) ?? -1) ||
            version <= keptVersion(key);
          if (raced || !keeps(record)) return;
          const frozen = deepFreeze(record);
          versions.set(frozen, version);
          cache.set(key, frozen);
        },
        abandon() {
          loads.delete(entry);
        },
      };
    },
    async get(key, load) {
      const kept = cache.get(key);
      if (kept !== undefined) return kept === MISSING ? undefined : kept;
      return loading([key], load, (record) => record);
    },
    async getMany(keys, load) {
      const { found, missing } = lookUp(cache, keys);
      if (missing.length > 0) {
        const loaded = await loading(
          missing,
          () => load(missing),
          (map, key) => map.get(key),
        );
        for (const [key, record] of loaded) found.set(key, record);
      }
      // Nothing loaded: `found` is in the keys' order already.
      return missing.length === 0 ? found : inOrder(keys, found);
    },
  };
}
