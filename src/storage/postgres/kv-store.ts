// The key–value store (Fedify's caches and key pairs, domain blocks, action budgets) as rows of
// `kv` (migration 0005): the key as a text[], the value as jsonb, the expiry as a timestamptz.
//
// Compare-and-set is one conditional statement, so it is atomic across processes: an UPDATE or
// DELETE re-checks its condition on the row another transaction just wrote, and an INSERT … ON
// CONFLICT waits for a concurrent insert of the key. Values are compared as jsonb, which is
// equality of JSON values (object keys in any order, arrays in order), the same as jsonEqual: a
// text comparison once refused every update of Fedify's circuit-breaker state.
//
// Writes of one key from this process run one at a time, in call order, as in the json-file store.
// The preview cards and the statuses' links to them are kept in this process (kv-memo.ts).

import { KeyedQueue } from "../json-file/keyed-queue.ts";
import { createKvWriteCounts } from "../kv-write-counts.ts";
import type { KvEntry, KvStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { createKvMemo, keptKey } from "./kv-memo.ts";

/**
 * What this process's own writes bump in Changes: Storage.version(), and a table no memo reads
 * (the "kv" table's version is the other processes' signal, which names no key).
 */
const KV_WRITES = "kv_writes";

interface KvRow {
  key: string[];
  value: unknown;
  expires_at: Date | null;
}

function checked(key: readonly string[]): string[] {
  if (key.length === 0) throw new Error("A key-value store key needs at least one segment");
  return [...key];
}

const entryOf = (row: KvRow): KvEntry => ({
  key: row.key,
  value: row.value,
  expiresAt: row.expires_at === null ? null : row.expires_at.toISOString(),
});

export function createKvStore(db: PgContext): KvStore {
  const { sql, changes } = db;
  const queue = new KeyedQueue();
  const memo = createKvMemo(changes);
  // This process's writes by key family (KvStore.version); Storage.version() moves with each.
  const counts = createKvWriteCounts();
  const wrote = (keys: readonly (readonly string[])[]) => {
    counts.wrote(keys);
    changes.bump(KV_WRITES);
  };
  /** Runs a write of `key` in its turn; the memo forgets the key once it resolves. */
  const run = <T>(key: string[], task: () => Promise<T>) =>
    queue.run(JSON.stringify(key), async () => {
      try {
        return await task();
      } finally {
        memo.written([key]);
      }
    });

  const remove = async (key: string[]): Promise<boolean> => {
    const rows = await sql`delete from kv where key = ${key}::text[] returning 1`;
    if (rows.length === 0) return false;
    wrote([key]);
    return true;
  };

  const loadMany = async (keys: readonly (readonly string[])[]) => {
    if (keys.length === 0) return [];
    // PostgreSQL has no array of arrays of varying length: the keys travel as one JSON array
    // and each is rebuilt as a text[], which the primary key's index then finds.
    const rows = await sql<(KvRow & { ord: string })[]>`
      select k.ord::text as ord, kv.key, kv.value, kv.expires_at
      from jsonb_array_elements(${jsonb(sql, keys.map(checked))}) with ordinality as k(j, ord)
      join kv on kv.key = array(select jsonb_array_elements_text(k.j))`;
    const found: (KvEntry | undefined)[] = keys.map(() => undefined);
    for (const row of rows) found[Number(row.ord) - 1] = entryOf(row);
    return found;
  };

  return {
    // Moved by this process's writes under the prefix as they resolve and by others' on their
    // change signal ("writer|kv", naming no key: every prefix moves); not by this process's own
    // signal heard back, which names no key either (it would move every prefix for a write of
    // one, later, at a time no caller can tell).
    version: (prefix) => changes.othersVersion("kv") + counts.count(prefix),
    async get(key) {
      if (keptKey(key)) return (await memo.getMany([key], loadMany))[0];
      const rows = await sql<KvRow[]>`
        select key, value, expires_at from kv where key = ${checked(key)}::text[]`;
      const row = rows[0];
      return row === undefined ? undefined : entryOf(row);
    },
    async getMany(keys) {
      if (keys.length === 0) return [];
      return memo.getMany(keys, loadMany);
    },
    set(entry) {
      const key = checked(entry.key);
      return run(key, async () => {
        // An undefined value has no JSON form: like compare-and-set's, it removes the entry.
        if (entry.value === undefined) {
          await remove(key);
          return;
        }
        await sql`
          insert into kv (key, value, expires_at)
          values (${key}::text[], ${jsonb(sql, entry.value)}, ${entry.expiresAt}::timestamptz)
          on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`;
        wrote([key]);
      });
    },
    delete(key) {
      const checkedKey = checked(key);
      return run(checkedKey, () => remove(checkedKey));
    },
    compareAndSet(expected, next, now) {
      const key = checked(next.key);
      return run(key, async () => {
        const live = sql`(expires_at is null or expires_at > ${now}::timestamptz)`;
        let rows: readonly unknown[];
        if (expected === undefined && next.value === undefined) {
          // Absent stays absent: true unless a live entry is there; an expired one is removed.
          const [row] = await sql<{ expired: number; live: boolean }[]>`
            with gone as (
              delete from kv where key = ${key}::text[] and not ${live} returning 1
            )
            select (select count(*) from gone)::int as expired,
              exists (select 1 from kv where key = ${key}::text[] and ${live}) as live`;
          if (row?.expired) wrote([key]);
          return row?.live === false;
        }
        if (expected === undefined) {
          // Inserted, or written over an entry expired at `now`; a live entry stays.
          rows = await sql`
            insert into kv (key, value, expires_at)
            values (${key}::text[], ${jsonb(sql, next.value)},
              ${next.expiresAt}::timestamptz)
            on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at
            where kv.expires_at is not null and kv.expires_at <= ${now}::timestamptz
            returning 1`;
        } else if (next.value === undefined) {
          rows = await sql`
            delete from kv
            where key = ${key}::text[] and ${live} and value = ${jsonb(sql, expected)}
            returning 1`;
        } else {
          rows = await sql`
            update kv set value = ${jsonb(sql, next.value)},
              expires_at = ${next.expiresAt}::timestamptz
            where key = ${key}::text[] and ${live} and value = ${jsonb(sql, expected)}
            returning 1`;
        }
        if (rows.length === 0) return false;
        wrote([key]);
        return true;
      });
    },
    async list(prefix) {
      const rows =
        prefix.length === 0
          ? await sql<KvRow[]>`select key, value, expires_at from kv order by key`
          : await sql<KvRow[]>`
              select key, value, expires_at from kv
              where key[1:${prefix.length}::int] = ${[...prefix]}::text[]
              order by key`;
      return rows.map(entryOf);
    },
    async pruneExpired(now) {
      const rows = await sql<{ key: string[] }[]>`
        delete from kv where expires_at is not null and expires_at <= ${now}::timestamptz
        returning key`;
      if (rows.length > 0) wrote(rows.map((r) => r.key));
      memo.written(rows.map((r) => r.key));
      return rows.length;
    },
  };
}
