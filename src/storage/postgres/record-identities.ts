// The same object for the same stored record, read after read. Statuses are written too often
// for a memo emptied on every write to their table (record-memo.ts), but what the read side
// builds from a status is kept by the record's identity (serialization/mastodon/status-text.ts
// keeps its rendered JSON while the record is the very same object, as json-file hands out).
// So rows are read as text and compared with the text the kept object was parsed from: equal
// text, same object (no parse, and the renderer's memo hits); changed text, a new object. Exact
// by construction — nothing to invalidate, as every read still asks the database.

import { deepFreeze } from "../../domain/deep-freeze.ts";
import { LruCache } from "../../domain/lru-cache.ts";

/** Records kept at most (the least recently read go first). */
const CAPACITY = 20_000;

/**
 * A row read as `id::text as key, data::text as json` (not `as id`: an output column named `id`
 * would be what `order by id` sorts, as text).
 */
export interface JsonRow {
  key: string;
  json: string;
}

export interface RecordIdentities<T> {
  /** The record of a row: the kept object when its text is unchanged. */
  of(row: JsonRow): T;
}

export function createRecordIdentities<T>(capacity = CAPACITY): RecordIdentities<T> {
  const kept = new LruCache<string, { json: string; record: T }>(capacity);
  return {
    of({ key, json }) {
      const known = kept.get(key);
      if (known !== undefined && known.json === json) return known.record;
      const record = deepFreeze(JSON.parse(json) as T);
      kept.set(key, { json, record });
      return record;
    },
  };
}
