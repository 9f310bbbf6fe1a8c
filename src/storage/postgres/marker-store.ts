// Read markers: table `markers` (migration 0004), one per account and timeline.

import type { Marker } from "../../domain/marker.ts";
import type { MarkerStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: Marker };

export function createMarkerStore(db: PgContext): MarkerStore {
  const { sql } = db;
  return {
    async get(accountId, timeline) {
      if (!isRowId(accountId)) return undefined;
      return firstData(
        await sql<Row[]>`
          select data from markers where account_id = ${accountId} and timeline = ${timeline}`,
      );
    },
    async put(marker) {
      await sql`
        insert into markers (account_id, timeline, data)
        values (${marker.accountId}, ${marker.timeline}, ${jsonb(sql, marker)})
        on conflict (account_id, timeline) do update set data = excluded.data`;
      db.changes.bump("markers");
    },
  };
}
