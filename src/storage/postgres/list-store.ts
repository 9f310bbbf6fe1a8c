// Users' lists: table `lists` (migration 0014), found by id and by owner. Members are rows of
// the shared `edges` table (kind "list-members").

import type { List } from "../../domain/list.ts";
import type { ListStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: List };

export function createListStore(db: PgContext): ListStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from lists where id = ${id}`);
    },
    async listByAccount(accountId) {
      if (!isRowId(accountId)) return [];
      const rows = await sql<Row[]>`
        select data from lists where account_id = ${accountId} order by id`;
      return rows.map((row) => row.data);
    },
    async put(list) {
      await sql`
        insert into lists (id, account_id, data)
        values (${list.id}, ${list.accountId}, ${jsonb(sql, list)})
        on conflict (id) do update set account_id = excluded.account_id, data = excluded.data`;
      db.changes.bump("lists");
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const rows = await sql`delete from lists where id = ${id} returning 1`;
      if (rows.length === 0) return false;
      db.changes.bump("lists");
      return true;
    },
  };
}
