// Collections: table `collections` (migration 0026), found by id, by owner, and by an accepted
// featured account through a GIN index on the inline items.

import type { Collection } from "../../domain/collection.ts";
import type { CollectionStore } from "../collection-port.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: Collection };

export function createCollectionStore(db: PgContext): CollectionStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from collections where id = ${id}`);
    },
    async listByAccount(accountId) {
      if (!isRowId(accountId)) return [];
      const rows = await sql<Row[]>`
        select data from collections where account_id = ${accountId} order by id desc`;
      return rows.map((row) => row.data);
    },
    async listFeaturing(accountId, offset, limit) {
      if (!isRowId(accountId) || limit <= 0) return [];
      const item = [{ accountId, state: "accepted" }];
      const rows = await sql<Row[]>`
        select data from collections where data->'items' @> ${jsonb(sql, item)}
        order by id desc offset ${Math.max(0, offset)} limit ${limit}`;
      return rows.map((row) => row.data);
    },
    async put(collection) {
      await sql`
        insert into collections (id, account_id, data)
        values (${collection.id}, ${collection.accountId}, ${jsonb(sql, collection)})
        on conflict (id) do update set account_id = excluded.account_id, data = excluded.data`;
      db.changes.bump("collections");
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const rows = await sql`delete from collections where id = ${id} returning 1`;
      if (rows.length === 0) return false;
      db.changes.bump("collections");
      return true;
    },
  };
}
