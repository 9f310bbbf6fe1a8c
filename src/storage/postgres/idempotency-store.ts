// Remembered Idempotency-Keys: table `idempotency_keys` (migration 0001), pruned by creation time.

import type { IdempotencyRecord } from "../../domain/relations.ts";
import type { IdempotencyStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData } from "./rows.ts";

type Row = { data: IdempotencyRecord };

/** Milliseconds, so differently written ISO times compare as instants; null when unreadable. */
const millis = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

export function createIdempotencyStore(db: PgContext): IdempotencyStore {
  const { sql } = db;
  return {
    async get(keyHash) {
      return firstData(
        await sql<Row[]>`select data from idempotency_keys where key_hash = ${keyHash}`,
      );
    },
    async put(record) {
      await sql`
        insert into idempotency_keys (key_hash, created_ms, data)
        values (${record.keyHash}, ${millis(record.createdAt)}, ${jsonb(sql, record)})
        on conflict (key_hash) do update set created_ms = excluded.created_ms, data = excluded.data`;
      db.changes.bump("idempotency_keys");
    },
    async putIfAbsent(record) {
      for (;;) {
        const inserted = await sql<Row[]>`
          insert into idempotency_keys (key_hash, created_ms, data)
          values (${record.keyHash}, ${millis(record.createdAt)}, ${jsonb(sql, record)})
          on conflict (key_hash) do nothing
          returning data`;
        const mine = firstData(inserted);
        if (mine) {
          db.changes.bump("idempotency_keys");
          return mine;
        }
        // A separate statement: one that inserted concurrently is visible only to a snapshot
        // taken after its commit, which the insert's own snapshot predates.
        const held = firstData(
          await sql<Row[]>`select data from idempotency_keys where key_hash = ${record.keyHash}`,
        );
        if (held) return held;
        // Pruned in between: try the insert again.
      }
    },
    async prune(before) {
      const cutoff = millis(before);
      if (cutoff === null) return 0;
      const result = await sql`delete from idempotency_keys where created_ms < ${cutoff}`;
      if (result.count > 0) db.changes.bump("idempotency_keys");
      return result.count;
    },
  };
}
