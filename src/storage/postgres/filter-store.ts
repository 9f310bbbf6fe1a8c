// Filters: table `filters` (migration 0016), one row per filter with its keywords and statuses
// in the jsonb record, found by id or by account (oldest first).

import type { CustomFilter } from "../../domain/filter.ts";
import type { FilterStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: CustomFilter };

export function createFilterStore(db: PgContext): FilterStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from filters where id = ${id}`);
    },
    async listByAccount(accountId) {
      if (!isRowId(accountId)) return [];
      const rows = await sql<Row[]>`
        select data from filters where account_id = ${accountId} order by id`;
      return rows.map((row) => row.data);
    },
    async put(filter) {
      await sql`
        insert into filters (id, account_id, data)
        values (${filter.id}, ${filter.accountId}, ${jsonb(sql, filter)})
        on conflict (id) do update set account_id = excluded.account_id, data = excluded.data`;
      db.changes.bump();
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const result = await sql`delete from filters where id = ${id}`;
      if (result.count === 0) return false;
      db.changes.bump();
      return true;
    },
  };
}
