// The insert of once-records (done-records.ts, ADR 0066) that rides a job's removal or rewrite:
// the key–value rows `true` until each record's time, upserted as Coordination.runOnce wrote its
// record on its own (once-leases.ts: whoever holds the row, a lease or an older record, the work
// is done). The records travel as one JSON array, so the statement's parameters do not grow. They
// are inserted in key order, as the once-leases are taken (once-leases.ts), so two statements
// meeting the same keys lock them in one order and never wait for each other in a cycle.

import type postgres from "postgres";
import type { DoneRecord } from "../done-records.ts";
import type { Sql } from "./connect.ts";
import { jsonText } from "./jsonb.ts";

export function doneRecordsInsert(
  sql: Sql,
  done: readonly DoneRecord[],
): postgres.PendingQuery<postgres.Row[]> {
  // One row per key (a statement cannot upsert a row twice): the record kept longest.
  const byKey = new Map<string, DoneRecord>();
  for (const record of done) {
    const name = JSON.stringify(record.key);
    const kept = byKey.get(name);
    if (!kept || Date.parse(record.until) > Date.parse(kept.until)) byKey.set(name, record);
  }
  return sql`
    insert into kv as k (key, value, expires_at)
    select array(select json_array_elements_text(r->'key')), 'true'::jsonb,
      (r->>'until')::timestamptz
    from json_array_elements(${jsonText([...byKey.values()])}::text::json) as r
    order by 1
    on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`;
}
