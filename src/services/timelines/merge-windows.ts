// One window over the union of several newest-first lists read with the same IdPage: the
// newest `limit` of the merged entries, or with min_id the oldest `limit` (still newest first),
// each status once. The hashtag timeline's `any` tags and the home timeline's followed tags
// read this way.

import { compareIds } from "../../domain/ids.ts";
import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";

export function mergeWindows(
  lists: readonly (readonly TimelineEntry[])[],
  window: IdPage,
): TimelineEntry[] {
  if (lists.length === 1) return [...(lists[0] as TimelineEntry[])];
  const byId = new Map<string, TimelineEntry>();
  // Earlier lists win a status listed twice (home: the author's entry over a tag's).
  for (const list of [...lists].reverse())
    for (const entry of list) byId.set(entry.status_id, entry);
  const merged = [...byId.values()].sort((a, b) => compareIds(b.status_id, a.status_id));
  return window.minId !== undefined
    ? merged.slice(Math.max(merged.length - window.limit, 0))
    : merged.slice(0, window.limit);
}
