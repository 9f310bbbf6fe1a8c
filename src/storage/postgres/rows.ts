// Small helpers of the stores: records out of rows, and which id strings can name a row.

/** Largest value of a bigint column. */
const BIGINT_MAX = 9_223_372_036_854_775_807n;
/** Digit strings as Wren writes ids: no sign, no leading zero. */
const CANONICAL_ID = /^(?:0|[1-9][0-9]{0,18})$/;

/**
 * Whether the id fits a bigint id column. Ids reach the stores from request paths and bodies
 * (`/api/v1/accounts/007`, a 25-digit id, a typo); such an id names no row, and sent to
 * PostgreSQL it would fail the statement instead of answering "not found".
 */
export function isRowId(id: string): boolean {
  return CANONICAL_ID.test(id) && BigInt(id) <= BIGINT_MAX;
}

/** The ids among `ids` that can name a row, once each (for `= any(…::bigint[])`). */
export function rowIds(ids: readonly string[]): string[] {
  return [...new Set(ids.filter(isRowId))];
}

/** The record of the first row, if any. */
export function firstData<T>(rows: readonly { data: T }[]): T | undefined {
  return rows[0]?.data;
}

/** The records of rows, keyed by their id (getMany answers). */
export function byId<T extends { id: string }>(rows: readonly { data: T }[]): Map<string, T> {
  return new Map(rows.map((row) => [row.data.id, row.data]));
}
