// The joined reads (JoinedReads) on PostgreSQL: each one statement, where asking the stores in
// turn cost a round trip per store (bench/pg-statements.ts lists what a request sends).

import type { Account } from "../../domain/account.ts";
import type { AccessToken, OAuthApp } from "../../domain/oauth.ts";
import type { Edge } from "../../domain/relations.ts";
import type { User } from "../../domain/user.ts";
import type { JoinedReads } from "../ports.ts";
import type { Sql } from "./connect.ts";
import { accountCountRows, statusCountRows } from "./counts.ts";
import { EDGE_KINDS } from "./edge-store.ts";

/**
 * A bigint from a text id, or null for one that names no row (an id column compared with a
 * failed cast would fail the whole statement): the SQL side of rows.ts's isRowId.
 */
const rowIdOf = (sql: Sql, text: ReturnType<Sql>) => sql`
  case when ${text} ~ '^(0|[1-9][0-9]{0,18})$'
    and (${text})::numeric <= 9223372036854775807 then (${text})::bigint end`;

export function createJoinedReads(sql: Sql): JoinedReads {
  return {
    async tokenHolder(tokenHash) {
      const [row] = await sql<
        { token: AccessToken; app: OAuthApp | null; account: Account | null; user: User | null }[]
      >`
        select t.data as token, p.data as app, a.data as account, u.data as "user"
        from (
          select data, account_id from access_tokens
          where token_hash = ${tokenHash} order by id desc limit 1
        ) t
        left join oauth_apps p on p.id = ${rowIdOf(sql, sql`t.data->>'appId'`)}
        left join accounts a on a.id = t.account_id
        left join users u on u.account_id = t.account_id`;
      if (!row) return undefined;
      return {
        token: row.token,
        app: row.app ?? undefined,
        account: row.account ?? undefined,
        user: row.user ?? undefined,
      };
    },

    async edges(accountId, questions) {
      // One `union all` branch per question, each on the index its store's lookup uses; a
      // question without ids has no branch (its answer is empty).
      const branches = questions.flatMap((q, i) => {
        if (q.ids.length === 0) return [];
        const ids = q.ids as string[];
        const match =
          q.direction === "from"
            ? sql`account_id = ${accountId} and target_id = any(${ids}::text[])`
            : sql`target_id = ${accountId} and account_id = any(${ids}::text[])`;
        return [
          sql`select ${i}::int as q, data from edges where kind = ${EDGE_KINDS[q.kind]} and ${match}`,
        ];
      });
      const answers = questions.map(() => new Map<string, Edge>());
      if (branches.length > 0) {
        const rows = await sql<{ q: number; data: Edge }[]>`
          ${branches.reduce((all, branch) => sql`${all} union all ${branch}`)}`;
        for (const { q, data } of rows) {
          const other = questions[q]?.direction === "from" ? data.targetId : data.accountId;
          answers[q]?.set(other, data);
        }
      }
      return answers as never;
    },

    async statusCounts(statusIds) {
      const rows = await statusCountRows(sql, statusIds, true);
      const found = new Map(rows.map((r) => [r.id, r]));
      return new Map(
        statusIds.map((id) => {
          const row = found.get(id);
          return [
            id,
            {
              replies: row?.replies ?? 0,
              reblogs: row?.reblogs ?? 0,
              favourites: row?.favourites ?? 0,
            },
          ];
        }),
      );
    },

    async accountCounts(accountIds) {
      const rows = await accountCountRows(sql, accountIds, true);
      const found = new Map(rows.map((r) => [r.account_id, r]));
      return new Map(
        accountIds.map((id) => {
          const row = found.get(id);
          return [
            id,
            {
              statuses: row?.count ?? 0,
              lastStatusAt: row?.last_at ?? null,
              followers: row?.followers ?? 0,
              following: row?.following ?? 0,
            },
          ];
        }),
      );
    },
  };
}
