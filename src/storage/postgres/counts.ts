// The counters shown next to statuses and accounts, read from the counter tables the row
// triggers keep (migration 0013, ADR 0020): a key lookup per id however many statuses, replies,
// boosts, favourites or follows there are. The status store answers its own part of them; the
// joined reads add the edge counts in the same statement (joined-reads.ts).

import type { Sql } from "./connect.ts";
import { EDGE_KINDS } from "./edge-store.ts";
import { rowIds } from "./rows.ts";

export interface StatusCountRow {
  id: string;
  replies: number;
  reblogs: number;
  /** Only when asked for, as quotes. */
  favourites?: number;
  quotes?: number;
}

/** Non-deleted replies and reblogs (and favourites and quotes) of each status that can name a row. */
export function statusCountRows(
  sql: Sql,
  statusIds: readonly string[],
  withEdges: boolean,
): Promise<StatusCountRow[]> | [] {
  const keys = rowIds(statusIds);
  if (keys.length === 0) return [];
  return sql<StatusCountRow[]>`
    select s.id,
      coalesce(c.replies, 0)::int as replies,
      coalesce(c.reblogs, 0)::int as reblogs
      ${
        withEdges
          ? sql`, coalesce((select n from edge_counts f
              where f.kind = ${EDGE_KINDS.favourites} and f.side = 'to'
                and f.id = s.id::text), 0)::int as favourites
            , coalesce((select n from edge_counts q
              where q.kind = ${EDGE_KINDS.quotes} and q.side = 'to'
                and q.id = s.id::text), 0)::int as quotes`
          : sql``
      }
    from unnest(${keys}::int8[]) as s(id)
    left join status_counts c on c.status_id = s.id`;
}

export interface AccountCountRow {
  account_id: string;
  count: number;
  last_at: string | null;
  /** Only when asked for. */
  followers?: number;
  following?: number;
}

/** Non-deleted statuses and the newest one's time (and follow counts) of each account. */
export function accountCountRows(
  sql: Sql,
  accountIds: readonly string[],
  withFollows: boolean,
): Promise<AccountCountRow[]> | [] {
  const keys = rowIds(accountIds);
  if (keys.length === 0) return [];
  return sql<AccountCountRow[]>`
    select a.id as account_id,
      coalesce(c.statuses, 0)::int as count,
      s.data->>'createdAt' as last_at
      ${
        withFollows
          ? sql`,
            coalesce((select n from edge_counts
              where kind = ${EDGE_KINDS.follows} and side = 'to'
                and id = a.id::text), 0)::int as followers,
            coalesce((select n from edge_counts
              where kind = ${EDGE_KINDS.follows} and side = 'from'
                and id = a.id::text), 0)::int as following`
          : sql``
      }
    from unnest(${keys}::int8[]) as a(id)
    left join account_status_counts c on c.account_id = a.id
    left join statuses s on s.id = c.last_status_id`;
}
