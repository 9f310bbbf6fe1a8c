// Sign-in records of local accounts: table `users` (migration 0001), keyed by account id and
// found by lower-cased email.

import type { User } from "../../domain/user.ts";
import type { UserStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { createRecordMemo } from "./record-memo.ts";
import { firstData, isRowId, rowIds } from "./rows.ts";

type Row = { data: User };

export function createUserStore(db: PgContext): UserStore {
  const { sql } = db;
  // Every signed-in request reads its user; users change rarely (record-memo.ts).
  const memo = createRecordMemo<User>(db.changes, "users");
  return {
    async get(accountId) {
      if (!isRowId(accountId)) return undefined;
      return memo.get(accountId, async () =>
        firstData(await sql<Row[]>`select data from users where account_id = ${accountId}`),
      );
    },
    async getMany(accountIds) {
      const wanted = rowIds(accountIds);
      if (wanted.length === 0) return new Map();
      return memo.getMany(wanted, async (missing) => {
        const rows = await sql<Row[]>`
          select data from users where account_id = any(${missing}::bigint[])`;
        return new Map(rows.map((row) => [row.data.accountId, row.data]));
      });
    },
    async findByEmail(email) {
      // Should two users share an address, the newest account's wins (json-file: the last written).
      return firstData(
        await sql<Row[]>`
          select data from users where email_key = ${email.toLowerCase()}
          order by account_id desc limit 1`,
      );
    },
    async put(user) {
      await sql`
        insert into users (account_id, email_key, data)
        values (${user.accountId}, ${user.email.toLowerCase()}, ${jsonb(sql, user)})
        on conflict (account_id) do update set email_key = excluded.email_key, data = excluded.data`;
      db.changes.bump("users");
    },
    async remove(accountId) {
      if (!isRowId(accountId)) return false;
      const rows = await sql`delete from users where account_id = ${accountId} returning 1`;
      if (rows.length === 0) return false;
      db.changes.bump("users");
      return true;
    },
    async count() {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from users`;
      return row?.n ?? 0;
    },
    async list() {
      const rows = await sql<Row[]>`select data from users order by account_id`;
      return rows.map((row) => row.data);
    },
  };
}
