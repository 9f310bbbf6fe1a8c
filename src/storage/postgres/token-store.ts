// Access tokens: table `access_tokens` (migration 0001), found by id, token hash, refresh token
// hash and account.

import type { AccessToken } from "../../domain/oauth.ts";
import type { TokenStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { createRecordMemo } from "./record-memo.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: AccessToken };

export function createTokenStore(db: PgContext): TokenStore {
  const { sql } = db;
  // Every signed-in request looks its token up by hash (record-memo.ts). A revocation is a
  // write to the table, which empties the memo of every process.
  const byHash = createRecordMemo<AccessToken>(db.changes, "access_tokens");
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from access_tokens where id = ${id}`);
    },
    async findByTokenHash(hash) {
      return byHash.get(hash, async () =>
        firstData(
          await sql<Row[]>`
            select data from access_tokens where token_hash = ${hash} order by id desc limit 1`,
        ),
      );
    },
    async findByRefreshTokenHash(hash) {
      return firstData(
        await sql<Row[]>`
          select data from access_tokens where refresh_token_hash = ${hash}
          order by id desc limit 1`,
      );
    },
    async put(token) {
      await sql`
        insert into access_tokens (id, token_hash, refresh_token_hash, account_id, data)
        values (
          ${token.id}, ${token.tokenHash}, ${token.refreshTokenHash}, ${token.accountId},
          ${jsonb(sql, token)}
        )
        on conflict (id) do update set
          token_hash = excluded.token_hash,
          refresh_token_hash = excluded.refresh_token_hash,
          account_id = excluded.account_id,
          data = excluded.data`;
      db.changes.bump("access_tokens");
    },
    async listByAccount(accountId) {
      if (!isRowId(accountId)) return [];
      const rows = await sql<Row[]>`
        select data from access_tokens where account_id = ${accountId} order by id`;
      return rows.map((row) => row.data);
    },
  };
}
