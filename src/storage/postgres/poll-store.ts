// Polls on PostgreSQL (migration 0002): looked up by id only; the counts live on the record.

import type { Poll } from "../../domain/poll.ts";
import type { PollStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { byId, rowId, rowIds } from "./rows.ts";

export function createPollStore(db: PgContext): PollStore {
  const { sql } = db;
  return {
    async get(id) {
      const key = rowId(id);
      if (key === undefined) return undefined;
      const [row] = await sql<{ data: Poll }[]>`select data from polls where id = ${key}::int8`;
      return row?.data;
    },
    async getMany(ids) {
      const keys = rowIds(ids);
      if (keys.length === 0) return new Map();
      const rows = await sql<{ data: Poll }[]>`
        select data from polls where id = any(${keys}::int8[])`;
      return byId(rows);
    },
    async put(poll) {
      await sql`
        insert into polls (id, data) values (${poll.id}::int8, ${jsonb(sql, poll)})
        on conflict (id) do update set data = excluded.data`;
      db.changes.bump("polls");
    },
    async delete(id) {
      const key = rowId(id);
      if (key === undefined) return false;
      const { count } = await sql`delete from polls where id = ${key}::int8`;
      if (count > 0) db.changes.bump("polls");
      return count > 0;
    },
    async listIds() {
      const rows = await sql<{ id: string }[]>`select id from polls`;
      return rows.map((r) => r.id);
    },
  };
}
