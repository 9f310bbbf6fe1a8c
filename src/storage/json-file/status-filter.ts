// StatusFilter as a predicate over status-table rows (no body read), applied while walking a
// list so a page still holds `limit` matching statuses.

import type { PublicFilter, StatusFilter } from "../ports.ts";
import type { TableColumns } from "./status-table.ts";

type RowTest = (row: number) => boolean;

/** undefined when the filter lets everything through (the walk can skip the lookups). */
export function statusPredicate(
  table: TableColumns,
  filter: StatusFilter = {},
): RowTest | undefined {
  const tests: RowTest[] = [];
  if (filter.excludeReplies) tests.push((row) => !table.isReplyToOthers(row));
  if (filter.excludeReblogs) tests.push((row) => !table.isReblog(row));
  if (filter.onlyMedia) tests.push((row) => table.hasMedia(row));
  if (filter.tagged !== undefined) {
    const tag = filter.tagged.toLowerCase();
    tests.push((row) => table.tagsOf(row).some((t) => t.toLowerCase() === tag));
  }
  if (filter.visibilities !== undefined) {
    const allowed = new Set<string>(filter.visibilities);
    tests.push((row) => allowed.has(table.visibilityOf(row)));
  }
  if (tests.length === 0) return undefined;
  return (row) => tests.every((test) => test(row));
}

export function publicPredicate(table: TableColumns, filter: PublicFilter): RowTest | undefined {
  return filter.onlyMedia ? (row) => table.hasMedia(row) : undefined;
}
