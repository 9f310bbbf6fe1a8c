// The joined reads (JoinedReads) on PostgreSQL: each one statement, where asking the stores in
// turn cost a round trip per store (bench/pg-statements.ts lists what a request sends); the
// token holder instead comes from the stores' record memos, the edges from the edge memo.

import type { Edge } from "../../domain/relations.ts";
import type { JoinedReads, Storage } from "../ports.ts";
import type { Sql } from "./connect.ts";
import { accountCountRows, statusCountRows } from "./counts.ts";
import type { EdgeMemo, EdgePair } from "./edge-memo.ts";
import { EDGE_KINDS } from "./edge-store.ts";

/** The stores whose records the token holder is made of (each memoised: record-memo.ts). */
type HolderStores = Pick<Storage, "tokens" | "apps" | "accounts" | "users">;

export function createJoinedReads(sql: Sql, stores: HolderStores, memo: EdgeMemo): JoinedReads {
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
      // Every question's pairs asked of the edge memo together: what it keeps answers at once,
      // the rest is one statement of primary-key lookups (edge-memo.ts, ADR 0041).
      const asked = questions.map((q) =>
        q.ids.map((id): EdgePair & { other: string } => {
          const kind = EDGE_KINDS[q.kind];
          return q.direction === "from"
            ? { kind, accountId, targetId: id, other: id }
            : { kind, accountId: id, targetId: accountId, other: id };
        }),
      );
      const found = await memo.find(asked.flat());
      let next = 0;
      return asked.map((pairs) => {
        const answer = new Map<string, Edge>();
        for (const p of pairs) {
          const edge = found[next++];
          if (edge !== undefined) answer.set(p.other, edge);
        }
        return answer;
      }) as never;
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
