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

/** A load under way: the keys it asked for, and those written since it began. */
interface Load {
  keys: readonly string[];
  stale: Set<string> | "all";
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
   * drop what a write kept of its own result, watchLoad). Others are, as they may carry rows
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
   * A load of `keys` the caller runs itself (a write whose statement reads them back), begun
   * now, before its statement is sent. `end()`, once it resolved, stops watching and answers
   * the keeping of what it read: the keys another write touched meanwhile are left out. The
   * caller may forget its own write's rows between the two (they are not watched any more).
   */
  watchLoad(keys: readonly string[]): { end(): (records: ReadonlyMap<string, T>) => void };
} {
  let cache = new LruCache<string, T | typeof MISSING>(capacity);
  const loads = new Set<Load>();

  const forget = (ids: readonly string[] | undefined) => {
    if (ids === undefined) {
      cache = new LruCache(capacity);
      for (const load of loads) load.stale = "all";
      return;
    }
    const keys = ids.map(keyOf);
    for (const key of keys) cache.delete(key);
    for (const load of loads) {
      if (load.stale === "all") continue;
      for (const key of keys) if (load.keys.includes(key)) load.stale.add(key);
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
    watchLoad(keys) {
      const entry: Load = { keys, stale: new Set() };
      loads.add(entry);
      return {
        end() {
          loads.delete(entry);
          const { stale } = entry;
          const fresh = stale === "all" ? [] : keys.filter((key) => !stale.has(key));
          return (records) => {
            for (const key of fresh) if (records.has(key)) keep(key, records.get(key));
          };
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
