// Filters: table `filters` (migration 0016), one row per filter with its keywords and statuses
// in the jsonb record, found by id or by account (oldest first).

import type { CustomFilter } from "../../domain/filter.ts";
import type { FilterStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { createRecordMemo } from "./record-memo.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: CustomFilter };

export function createFilterStore(db: PgContext): FilterStore {
  const { sql } = db;
  // Every signed-in timeline and notification page reads the viewer's filters; they change
  // rarely (record-memo.ts).
  const byAccount = createRecordMemo<CustomFilter[]>(db.changes, "filters");
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from filters where id = ${id}`);
    },
    async listByAccount(accountId) {
      if (!isRowId(accountId)) return [];
      const filters = await byAccount.get(accountId, async () => {
        const rows = await sql<Row[]>`
          select data from filters where account_id = ${accountId} order by id`;
        return rows.map((row) => row.data);
      });
      return filters ?? [];
    },
    async listByAccounts(accountIds) {
      const out = new Map<string, CustomFilter[]>();
      const valid = [...new Set(accountIds)].filter(isRowId);
      if (valid.length === 0) return out;
      const rows = await sql<Row[]>`
        select data from filters where account_id = any(${valid}::bigint[]) order by id`;
      for (const { data } of rows) {
        const mine = out.get(data.accountId);
        if (mine) mine.push(data);
        else out.set(data.accountId, [data]);
      }
      return out;
    },
    async put(filter) {
      await sql`
        insert into filters (id, account_id, data)
        values (${filter.id}, ${filter.accountId}, ${jsonb(sql, filter)})
        on conflict (id) do update set account_id = excluded.account_id, data = excluded.data`;
      db.changes.bump("filters");
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const result = await sql`delete from filters where id = ${id}`;
      if (result.count === 0) return false;
      db.changes.bump("filters");
      return true;
    },
  };
}
