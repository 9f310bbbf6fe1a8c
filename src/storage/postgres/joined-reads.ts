// The joined reads (JoinedReads) on PostgreSQL: each one statement, where asking the stores in
// turn cost a round trip per store (bench/pg-statements.ts lists what a request sends); the
// token holder instead comes from the stores' record memos.

import type { Edge } from "../../domain/relations.ts";
import type { JoinedReads, Storage } from "../ports.ts";
import type { Sql } from "./connect.ts";
import { accountCountRows, statusCountRows } from "./counts.ts";
import { EDGE_KINDS } from "./edge-store.ts";

/** The stores whose records the token holder is made of (each memoised: record-memo.ts). */
type HolderStores = Pick<Storage, "tokens" | "apps" | "accounts" | "users">;

export function createJoinedReads(sql: Sql, stores: HolderStores): JoinedReads {
  return {
    // From the stores' memos rather than one join: a signed-in request's token, app, account
    // and user are kept in this process until their tables change, so the usual request sends
    // no statement at all here (ADR 0020); a first one sends two round trips.
    async tokenHolder(tokenHash) {
      const token = await stores.tokens.findByTokenHash(tokenHash);
      if (!token) return undefined;
      const [app, account, user] = await Promise.all([
        stores.apps.get(token.appId),
        token.accountId === null ? undefined : stores.accounts.get(token.accountId),
        token.accountId === null ? undefined : stores.users.get(token.accountId),
      ]);
      return { token, app, account, user };
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
              quotes: row?.quotes ?? 0,
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
