// Mastodon's id windows (IdPage) as SQL on a bigint id column: the same answers as the
// json-file backend's SortedIds.page. Bounds arrive as digit strings of up to 25 digits (the
// HTTP layer's id pattern), longer than a bigint holds: one past the largest bigint is no upper
// bound at all, and no id lies above it. json-file compares ids as strings, by length and then
// by character (domain/ids.ts compareIds): the same as numbers for ids as Wren writes them, but a
// bound with leading zeros ("0050") falls between two numbers there; idBounds finds the bigint
// comparison that keeps exactly the same ids.

import type postgres from "postgres";
import type { IdPage } from "../ports.ts";
import type { Sql } from "./connect.ts";

const BIGINT_MAX = 9_223_372_036_854_775_807n;

/** An IdPage's bounds as bigint comparisons. */
export interface IdBounds {
  /** Only ids strictly above (since_id, min_id). */
  above?: bigint;
  /** Only ids strictly below (max_id). */
  below?: bigint;
}

/** The page's bounds, or undefined when no id can lie inside them. */
export function idBounds(page: Omit<IdPage, "limit">): IdBounds | undefined {
  const bounds: IdBounds = {};
  if (page.maxId !== undefined) {
    const below = asBigint(page.maxId, "below");
    // Past the range: every stored id lies below it.
    if (below <= BIGINT_MAX) bounds.below = below;
  }
  for (const id of [page.sinceId, page.minId]) {
    if (id === undefined) continue;
    const above = asBigint(id, "above");
    if (above >= BIGINT_MAX) return undefined;
    if (bounds.above === undefined || above > bounds.above) bounds.above = above;
  }
  if (bounds.above !== undefined && bounds.below !== undefined) {
    if (bounds.below - bounds.above <= 1n) return undefined;
  }
  return bounds;
}

/** The bigint that compares with every id as the string does under compareIds. */
function asBigint(id: string, side: "above" | "below"): bigint {
  if (!/^[0-9]+$/.test(id)) throw new TypeError(`Not an id to page by: ${JSON.stringify(id)}`);
  if (id.length > 1 && id.startsWith("0")) {
    // Longer than every id of fewer digits, shorter than every other: between 10^(n-1) - 1
    // and 10^(n-1), where n is its length.
    const power = 10n ** BigInt(id.length - 1);
    return side === "below" ? power : power - 1n;
  }
  return BigInt(id);
}

export interface IdWindow {
  /** `and …` conditions on the column (an empty fragment when unbounded). */
  where: postgres.Fragment;
  /** The order to take `limit` rows in: min_id walks up from its bound, the rest down. */
  direction: postgres.Fragment;
  limit: number;
}

/**
 * Whether any id can lie in the page: what idWindow answers undefined to, without building its
 * SQL fragments (a page kept in a memo is answered without them: status-store.ts).
 */
export function pageCanHold(page: IdPage): boolean {
  return page.limit > 0 && idBounds(page) !== undefined;
}

/** The window of a page that pageCanHold said can hold ids. */
export function openWindow(sql: Sql, page: IdPage, column = "id"): IdWindow {
  const window = idWindow(sql, page, column);
  if (window === undefined) throw new Error("The page holds no ids: check pageCanHold first");
  return window;
}

/** The window's conditions on `column` (default `id`), or undefined when no id can be in it. */
export function idWindow(sql: Sql, page: IdPage, column = "id"): IdWindow | undefined {
  if (page.limit <= 0) return undefined;
  const bounds = idBounds(page);
  if (bounds === undefined) return undefined;
  const { above, below } = bounds;
  const name = sql(column);
  return {
    where: sql`${below === undefined ? sql`` : sql`and ${name} < ${below.toString()}::bigint`}
      ${above === undefined ? sql`` : sql`and ${name} > ${above.toString()}::bigint`}`,
    direction: page.minId !== undefined ? sql`asc` : sql`desc`,
    limit: page.limit,
  };
}

/** A window's rows newest first: min_id's walk up is reversed. */
export function newestFirst<T>(rows: readonly T[], page: IdPage): T[] {
  return page.minId !== undefined ? [...rows].reverse() : [...rows];
}
