// Scheduled statuses: table `scheduled_statuses` (migration 0012), listed per account newest
// first by id and counted per account and day of their time.

import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { ScheduledStatusStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { idWindow } from "./id-window.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: ScheduledStatus };

export function createScheduledStatusStore(db: PgContext): ScheduledStatusStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from scheduled_statuses where id = ${id}`);
    },
    async put(scheduled) {
      await sql`
        insert into scheduled_statuses (id, account_id, scheduled_at, data)
        values (
          ${scheduled.id}, ${scheduled.accountId}, ${scheduled.scheduledAt},
          ${jsonb(sql, scheduled)}
        )
        on conflict (id) do update set
          account_id = excluded.account_id,
          scheduled_at = excluded.scheduled_at,
          data = excluded.data`;
      db.changes.bump("scheduled_statuses");
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const result = await sql`delete from scheduled_statuses where id = ${id}`;
      if (result.count === 0) return false;
      db.changes.bump("scheduled_statuses");
      return true;
    },
    async listByAccount(accountId, page) {
      if (!isRowId(accountId)) return [];
      const window = idWindow(sql, page);
      if (!window) return [];
      const rows = await sql<Row[]>`
        select data from scheduled_statuses where account_id = ${accountId} ${window.where}
        order by id ${window.direction} limit ${window.limit}`;
      const records = rows.map((row) => row.data);
      // min_id walks up from its bound; the answer is newest first either way.
      return page.minId !== undefined ? records.reverse() : records;
    },
    async countByAccount(accountId, window) {
      if (!isRowId(accountId)) return 0;
      const [row] = window
        ? await sql<{ n: number }[]>`
            select count(*)::int as n from scheduled_statuses
            where account_id = ${accountId}
              and scheduled_at >= ${window.from} and scheduled_at < ${window.to}`
        : await sql<{ n: number }[]>`
            select count(*)::int as n from scheduled_statuses where account_id = ${accountId}`;
      return row?.n ?? 0;
    },
  };
}
