// Earlier versions of edited statuses on PostgreSQL (migration 0002), listed per status in id
// order, which is the order they were saved in.

import type { StatusEdit } from "../../domain/status.ts";
import type { StatusEditStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { rowId } from "./rows.ts";

export function createStatusEditStore(db: PgContext): StatusEditStore {
  const { sql } = db;
  return {
    async listByStatus(statusId) {
      const key = rowId(statusId);
      if (key === undefined) return [];
      const rows = await sql<{ data: StatusEdit }[]>`
        select data from status_edits where status_id = ${key}::int8 order by id`;
      return rows.map((r) => r.data);
    },
    async put(edit) {
      await sql`
        insert into status_edits (id, status_id, data)
        values (${edit.id}::int8, ${edit.statusId}::int8, ${jsonb(sql, edit)})
        on conflict (id) do update set status_id = excluded.status_id, data = excluded.data`;
      db.changes.bump("status_edits");
    },
    async deleteByStatus(statusId) {
      const key = rowId(statusId);
      if (key === undefined) return 0;
      const { count } = await sql`delete from status_edits where status_id = ${key}::int8`;
      if (count > 0) db.changes.bump("status_edits");
      return count;
    },
  };
}
