// The counters shown next to statuses and accounts, per id on the id's own index ranges (one
// `= any(…)` grouped over a table makes the planner scan all of it once the ids asked about hold
// a few percent of the rows: bench/postgres-scale.ts). The status store answers its own part of
// them; the joined reads add the edge counts in the same statement (joined-reads.ts).

import type { Sql } from "./connect.ts";
import { EDGE_KINDS } from "./edge-store.ts";
import { rowIds } from "./rows.ts";

export interface StatusCountRow {
  id: string;
  replies: number;
  reblogs: number;
  /** Only when asked for. */
  favourites?: number;
}

/** Non-deleted replies and reblogs (and favourites) of each status that can name a row. */
export function statusCountRows(
  sql: Sql,
  statusIds: readonly string[],
  withFavourites: boolean,
): Promise<StatusCountRow[]> | [] {
  const keys = rowIds(statusIds);
  if (keys.length === 0) return [];
  return sql<StatusCountRow[]>`
    select s.id,
      (select count(*)::int from statuses r
        where r.in_reply_to_id = s.id and not r.deleted) as replies,
      (select count(*)::int from statuses b
        where b.reblog_of_id = s.id and not b.deleted) as reblogs
      ${
        withFavourites
          ? sql`, (select count(*)::int from edges f
              where f.kind = ${EDGE_KINDS.favourites} and f.target_id = s.id::text) as favourites`
          : sql``
      }
    from unnest(${keys}::int8[]) as s(id)`;
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
      (select count(*)::int from statuses
        where account_id = a.id and not deleted) as count,
      (select data->>'createdAt' from statuses
        where account_id = a.id and not deleted
        order by id desc limit 1) as last_at
      ${
        withFollows
          ? sql`,
            (select count(*)::int from edges
              where kind = ${EDGE_KINDS.follows} and target_id = a.id::text) as followers,
            (select count(*)::int from edges
              where kind = ${EDGE_KINDS.follows} and account_id = a.id::text) as following`
          : sql``
      }
    from unnest(${keys}::int8[]) as a(id)`;
}
