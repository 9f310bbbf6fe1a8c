// StatusFilter as a predicate over status summaries (no body read), applied while walking an id list so a page
// still holds `limit` matching statuses.

import type { PublicFilter, StatusFilter } from "../ports.ts";
import { isReplyToOthers } from "./status-indexes.ts";
import type { StatusSummary } from "./status-summary.ts";

/** undefined when the filter lets everything through (the walk can skip the lookups). */
export function statusPredicate(
  filter: StatusFilter = {},
): ((s: StatusSummary) => boolean) | undefined {
  const tests: ((s: StatusSummary) => boolean)[] = [];
  if (filter.excludeReplies) tests.push((s) => !isReplyToOthers(s));
  if (filter.excludeReblogs) tests.push((s) => s.reblogOfId === null);
  if (filter.onlyMedia) tests.push(hasMedia);
  if (filter.tagged !== undefined) {
    const tag = filter.tagged.toLowerCase();
    tests.push((s) => s.tags.some((t) => t.toLowerCase() === tag));
  }
  if (filter.visibilities !== undefined) {
    const allowed = new Set(filter.visibilities);
    tests.push((s) => allowed.has(s.visibility));
  }
  if (tests.length === 0) return undefined;
  return (s) => tests.every((test) => test(s));
}

export function publicPredicate(filter: PublicFilter): ((s: StatusSummary) => boolean) | undefined {
  return filter.onlyMedia ? hasMedia : undefined;
}

function hasMedia(s: StatusSummary): boolean {
  return s.hasMedia;
}
