// Wren's ids in bigint columns, and IdPage windows as SQL. The json-file backend compares ids as
// strings by length, then by character (domain/ids.ts compareIds): the same as numbers for real
// ids, but a bound with leading zeros ("0050") falls between two numbers there. The window here
// turns every bound into a plain bigint comparison that keeps and drops exactly the same ids.

import type { IdPage } from "../ports.ts";
import type { Sql } from "./connect.ts";

const INT8_MAX = 9_223_372_036_854_775_807n;
const CANONICAL = /^(0|[1-9][0-9]{0,18})$/;

/**
 * The id as a bigint parameter, or undefined when no row can have it (not a number in canonical
 * form, or beyond bigint): a lookup of such an id finds nothing, as in json-file, instead of
 * failing on the cast.
 */
export function dbId(id: string): string | undefined {
  return CANONICAL.test(id) && BigInt(id) <= INT8_MAX ? id : undefined;
}

/** The ids that can be in a bigint column, for `= any(${ids}::int8[])`. */
export function dbIds(ids: readonly string[]): string[] {
  return [...new Set(ids.flatMap((id) => dbId(id) ?? []))];
}

/** An IdPage as bounds on a bigint column. */
export interface IdWindow {
  /** Only ids strictly above (since_id, min_id). */
  above?: string;
  /** Only ids strictly below (max_id). */
  below?: string;
  /** min_id: the oldest ids above the bound are taken, so the query walks upwards. */
  ascending: boolean;
  limit: number;
}

/** The page's window, or undefined when it can hold nothing. */
export function idWindow(page: IdPage): IdWindow | undefined {
  if (page.limit <= 0) return undefined;
  const window: IdWindow = { ascending: page.minId !== undefined, limit: page.limit };
  if (page.maxId !== undefined) {
    const below = bound(page.maxId, "below");
    // Above bigint: every stored id is below it.
    if (below !== undefined) window.below = below.toString();
  }
  for (const id of [page.sinceId, page.minId]) {
    if (id === undefined) continue;
    const above = bound(id, "above");
    if (above === undefined) return undefined;
    if (window.above === undefined || above > BigInt(window.above)) {
      window.above = above.toString();
    }
  }
  if (window.above !== undefined && window.below !== undefined) {
    if (BigInt(window.below) - BigInt(window.above) <= 1n) return undefined;
  }
  return window;
}

/**
 * The bigint bound that compares with every real id as the string does under compareIds;
 * undefined when it is beyond bigint.
 */
function bound(id: string, side: "above" | "below"): bigint | undefined {
  if (!/^[0-9]+$/.test(id)) throw new TypeError(`Not an id to page by: ${JSON.stringify(id)}`);
  let value: bigint;
  if (id.length > 1 && id.startsWith("0")) {
    // Longer than every id of fewer digits, shorter than every other: between 10^(n-1) - 1
    // and 10^(n-1), where n is its length.
    const power = 10n ** BigInt(id.length - 1);
    value = side === "below" ? power : power - 1n;
  } else {
    value = BigInt(id);
  }
  return value > INT8_MAX ? undefined : value;
}

/** `and <column> > … and <column> < …` for the window (nothing for an open side). */
export function idRange(sql: Sql, column: string, window: IdWindow) {
  const name = sql(column);
  return sql`${window.above === undefined ? sql`` : sql`and ${name} > ${window.above}::int8`}
    ${window.below === undefined ? sql`` : sql`and ${name} < ${window.below}::int8`}`;
}

/** The order the query walks the window in (see IdWindow.ascending). */
export function idOrder(sql: Sql, column: string, window: IdWindow) {
  return window.ascending ? sql`${sql(column)} asc` : sql`${sql(column)} desc`;
}

/** Rows of a window query, newest first whichever way it walked. */
export function newestFirst<T>(rows: readonly T[], window: IdWindow): T[] {
  return window.ascending ? [...rows].reverse() : [...rows];
}
