// Notifications on PostgreSQL (migration 0003): each recipient's are a range scan on
// (account_id, id); the filters are conditions on that scan, so a page still holds `limit`
// matches. find() uses the (recipient, type, sender, status) index. Those held back by the
// notification policy are marked in the `filtered` column (migration 0023).

import type { Notification } from "../../domain/notification.ts";
import type { NotificationFilter, NotificationStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { idWindow, newestFirst } from "./id-window.ts";
import { jsonb } from "./jsonb.ts";
import { rowId, rowIds } from "./rows.ts";

interface DataRow {
  data: Notification;
}

export function createNotificationStore(db: PgContext): NotificationStore {
  const { sql } = db;

  // Written as the partial indexes of migration 0023 are, so the planner can use them.
  const filteredSql = (filtered: boolean | undefined) => {
    if (filtered === undefined) return sql``;
    return filtered ? sql`and filtered` : sql`and not filtered`;
  };

  /** The filter's conditions, each `and …`; undefined when nothing can match. */
  const filterSql = (filter: NotificationFilter = {}) => {
    let from: string | undefined;
    if (filter.fromAccountId !== undefined) {
      from = rowId(filter.fromAccountId);
      if (from === undefined) return undefined;
    }
    const types = filter.types ?? [];
    const excluded = filter.excludeTypes ?? [];
    return sql`
      ${types.length > 0 ? sql`and type = any(${[...types]}::text[])` : sql``}
      ${excluded.length > 0 ? sql`and type <> all(${[...excluded]}::text[])` : sql``}
      ${from === undefined ? sql`` : sql`and from_account_id = ${from}::int8`}
      ${filteredSql(filter.filtered)}`;
  };

  return {
    async get(id) {
      const key = rowId(id);
      if (key === undefined) return undefined;
      const [row] = await sql<DataRow[]>`select data from notifications where id = ${key}::int8`;
      return row?.data;
    },

    async put(n) {
      await sql`
        insert into notifications (id, account_id, type, from_account_id, status_id, filtered, data)
        values (${n.id}::int8, ${n.accountId}::int8, ${n.type}, ${n.fromAccountId}::int8,
          ${n.statusId}::int8, ${n.filtered === true}, ${jsonb(sql, n)})
        on conflict (id) do update set
          account_id = excluded.account_id, type = excluded.type,
          from_account_id = excluded.from_account_id, status_id = excluded.status_id,
          filtered = excluded.filtered, data = excluded.data`;
      db.changes.bump("notifications");
    },

    async delete(id) {
      const key = rowId(id);
      if (key === undefined) return false;
      const { count } = await sql`delete from notifications where id = ${key}::int8`;
      if (count === 0) return false;
      db.changes.bump("notifications");
      return true;
    },

    async listFor(accountId, page, filter) {
      const key = rowId(accountId);
      const window = idWindow(sql, page);
      const conditions = filterSql(filter);
      if (key === undefined || window === undefined || conditions === undefined) return [];
      const rows = await sql<DataRow[]>`
        select data from notifications
        where account_id = ${key}::int8 ${window.where} ${conditions}
        order by id ${window.direction} limit ${window.limit}`;
      return newestFirst(rows, page).map((r) => r.data);
    },

    async find(accountId, type, fromAccountId, statusId) {
      const key = rowId(accountId);
      const from = rowId(fromAccountId);
      const status = statusId === null ? null : rowId(statusId);
      if (key === undefined || from === undefined || status === undefined) return undefined;
      // Normally one; should duplicates exist, the newest answers.
      const [row] = await sql<DataRow[]>`
        select data from notifications
        where account_id = ${key}::int8 and type = ${type} and from_account_id = ${from}::int8
          and ${status === null ? sql`status_id is null` : sql`status_id = ${status}::int8`}
        order by id desc limit 1`;
      return row?.data;
    },

    async countFor(accountId, { sinceId, limit, filter }) {
      const key = rowId(accountId);
      const window = idWindow(sql, { limit, sinceId });
      const conditions = filterSql(filter);
      if (key === undefined || window === undefined || conditions === undefined) return 0;
      const [row] = await sql<{ count: number }[]>`
        select count(*)::int as count from (
          select 1 from notifications
          where account_id = ${key}::int8 ${window.where} ${conditions}
          limit ${window.limit}
        ) as page`;
      return row?.count ?? 0;
    },

    async clear(accountId) {
      const key = rowId(accountId);
      if (key === undefined) return;
      const { count } = await sql`delete from notifications where account_id = ${key}::int8`;
      if (count > 0) db.changes.bump("notifications");
    },

    async deleteByStatus(statusId) {
      const key = rowId(statusId);
      if (key === undefined) return;
      const { count } = await sql`delete from notifications where status_id = ${key}::int8`;
      if (count > 0) db.changes.bump("notifications");
    },
    async findStatusIds(statusIds) {
      const keys = rowIds(statusIds);
      if (keys.length === 0) return new Set();
      const rows = await sql<{ status_id: string }[]>`
        select distinct status_id from notifications where status_id = any(${keys}::int8[])`;
      return new Set(rows.map((r) => r.status_id));
    },
  };
}
