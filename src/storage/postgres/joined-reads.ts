// The joined reads (JoinedReads) on PostgreSQL: each one statement, where asking the stores in
// turn cost a round trip per store (bench/pg-statements.ts lists what a request sends); the
// token holder instead comes from the stores' record memos, the edges from the edge memo
// (edge-memo.ts, ADR 0041), and the counters from memos kept per process and forgotten row
// by row as the counter tables' change signals name them (row-memo.ts, count-signals.ts,
// migration 0039, ADR 0042), as json-file answers them from memory.

import type { Edge } from "../../domain/relations.ts";
import type { AccountCounts, EdgeQuestion, JoinedReads, StatusCounts, Storage } from "../ports.ts";
import type { AccountCountsMemo } from "./account-counts-memo.ts";
import type { PgContext } from "./context.ts";
import { EDGE_COUNTS, edgeCountSignal, STATUS_COUNTS } from "./count-signals.ts";
import { accountCountRows, statusCountRows } from "./counts.ts";
import type { EdgeMemo, EdgePair } from "./edge-memo.ts";
import { EDGE_KINDS } from "./edge-store.ts";
import { createRowMemo } from "./row-memo.ts";

/** The stores whose records the token holder is made of (each memoised: record-memo.ts). */
type HolderStores = Pick<Storage, "tokens" | "apps" | "accounts" | "users">;

export function createJoinedReads(
  db: PgContext,
  stores: HolderStores,
  memo: EdgeMemo,
  accountCounts: AccountCountsMemo,
): JoinedReads {
  const { sql, changes } = db;
  // A status's counters are its status_counts row and its favourites' and quotes' edge counts.
  const statusCounts = createRowMemo<StatusCounts>(changes, [
    STATUS_COUNTS,
    EDGE_COUNTS,
    edgeCountSignal(EDGE_KINDS.favourites, "to"),
    edgeCountSignal(EDGE_KINDS.quotes, "to"),
  ]);
  // An account's: account-counts-memo.ts (shared with the status store's put).

  const loadStatusCounts = async (ids: string[]) => {
    const rows = await statusCountRows(sql, ids, true);
    const found = new Map(rows.map((r) => [r.id, r]));
    return new Map(
      ids.map((id) => {
        const row = found.get(id);
        const counts: StatusCounts = {
          replies: row?.replies ?? 0,
          reblogs: row?.reblogs ?? 0,
          favourites: row?.favourites ?? 0,
          quotes: row?.quotes ?? 0,
        };
        return [id, counts];
      }),
    );
  };

  const loadAccountCounts = async (ids: string[]) => {
    const rows = await accountCountRows(sql, ids, true);
    const found = new Map(rows.map((r) => [r.account_id, r]));
    return new Map(
      ids.map((id) => {
        const row = found.get(id);
        const counts: AccountCounts = {
          statuses: row?.count ?? 0,
          lastStatusAt: row?.last_at ?? null,
          followers: row?.followers ?? 0,
          following: row?.following ?? 0,
        };
        return [id, counts];
      }),
    );
  };

  /** Every question's answer from the kept pairs, or undefined when one pair is not kept. */
  const keptEdges = (accountId: string, questions: readonly EdgeQuestion[]) => {
    const answers: Map<string, Edge>[] = [];
    for (const q of questions) {
      const kind = EDGE_KINDS[q.kind];
      const answer = new Map<string, Edge>();
      for (const id of q.ids) {
        const edge =
          q.direction === "from" ? memo.kept(kind, accountId, id) : memo.kept(kind, id, accountId);
        if (edge === undefined) return undefined;
        if (edge !== null) answer.set(id, edge);
      }
      answers.push(answer);
    }
    return answers;
  };

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
      // Between writes every pair is kept: answered one lookup a pair, with no pair objects.
      const kept = keptEdges(accountId, questions);
      if (kept !== undefined) return kept as never;
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

    // Ids that name no row (not a number) count nothing, as the statement answered for them.
    statusCounts: (statusIds) => statusCounts.getMany(statusIds, loadStatusCounts),

    accountCounts: (accountIds) => accountCounts.getMany(accountIds, loadAccountCounts),
  };
}
