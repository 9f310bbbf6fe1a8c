// Mastodon's id windows (IdPage) as SQL on a bigint `id` column: the same answers as the
// json-file backend's SortedIds.page. Bounds arrive as digit strings of up to 25 digits (the
// HTTP layer's id pattern), longer than a bigint holds: one past the largest bigint is no upper
// bound at all, and no id lies above it.

import type postgres from "postgres";
import type { IdPage } from "../ports.ts";
import type { Sql } from "./connect.ts";

const BIGINT_MAX = 9_223_372_036_854_775_807n;

export interface IdWindow {
  /** `and …` conditions on `id` (an empty fragment when unbounded). */
  where: postgres.Fragment;
  /** The order to take `limit` rows in: min_id walks up from its bound, the rest down. */
  direction: postgres.Fragment;
  limit: number;
}

/** The window's conditions, or undefined when no id can be in it. */
export function idWindow(sql: Sql, page: IdPage): IdWindow | undefined {
  if (page.limit <= 0) return undefined;
  const above = [page.sinceId, page.minId].filter((id) => id !== undefined);
  if (above.some((id) => BigInt(id) >= BIGINT_MAX)) return undefined;
  const below = page.maxId !== undefined && BigInt(page.maxId) <= BIGINT_MAX ? page.maxId : null;
  const lower = above.length === 0 ? null : above.reduce((a, b) => (BigInt(a) > BigInt(b) ? a : b));
  return {
    where: sql`${below === null ? sql`` : sql`and id < ${below}::bigint`}
      ${lower === null ? sql`` : sql`and id > ${lower}::bigint`}`,
    direction: page.minId !== undefined ? sql`asc` : sql`desc`,
    limit: page.limit,
  };
}
