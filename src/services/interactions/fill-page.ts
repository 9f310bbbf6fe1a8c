// Fills a page of a list whose items may be hidden after fetching (deleted statuses, statuses no
// longer visible, blocked or muted accounts). Fetching just `limit` items and dropping some would
// answer short or even empty pages, and clients stop paging at an empty page although older
// items exist; so more items are fetched, a few rounds at most, until the page is full.

import type { IdPage } from "../../storage/ports.ts";

export interface FilledPage<T> {
  items: T[];
  /** Paging ids of the newest and oldest items looked at, for the Link header. */
  newestId: string | undefined;
  oldestId: string | undefined;
}

/** Bounds the work per request when most of a list is hidden. */
const MAX_ROUNDS = 4;

interface Seen<T> {
  id: string;
  kept: T | undefined;
}

/**
 * `fetch` answers one window of the list, newest first; `keep` maps a fetched batch to what is
 * shown of each item (undefined: hidden), in the same order.
 */
export async function fillPage<E extends { id: string }, T>(
  page: IdPage,
  fetch: (page: IdPage) => Promise<E[]>,
  keep: (batch: E[]) => Promise<(T | undefined)[]>,
): Promise<FilledPage<T>> {
  // min_id pages climb towards newer items; the others descend towards older ones.
  const upward = page.minId !== undefined && page.maxId === undefined;
  let seen: Seen<T>[] = [];
  let kept = 0;
  let window: IdPage = page;
  for (let round = 0; round < MAX_ROUNDS && kept < page.limit; round++) {
    const batch = await fetch(window);
    if (batch.length === 0) break;
    const shown = await keep(batch);
    const entries = batch.map((item, i) => ({ id: item.id, kept: shown[i] }));
    kept += entries.filter((e) => e.kept !== undefined).length;
    // Batches arrive newest first; a batch fetched upward is newer than everything so far.
    seen = upward ? [...entries, ...seen] : [...seen, ...entries];
    if (batch.length < window.limit) break;
    const edge = upward ? batch[0] : batch.at(-1);
    window = upward
      ? { limit: page.limit, minId: edge?.id }
      : { limit: page.limit, maxId: edge?.id, sinceId: page.sinceId };
  }
  // Keep `limit` shown items: the newest when descending, the oldest (nearest min_id) when
  // climbing, and only the items looked at up to the last one kept, so paging resumes there.
  if (kept > page.limit) {
    let count = 0;
    if (upward) {
      let start = seen.length;
      while (start > 0 && count < page.limit) if (seen[--start]?.kept !== undefined) count++;
      seen = seen.slice(start);
    } else {
      let end = 0;
      while (end < seen.length && count < page.limit) if (seen[end++]?.kept !== undefined) count++;
      seen = seen.slice(0, end);
    }
  }
  return {
    items: seen.flatMap((e) => (e.kept === undefined ? [] : [e.kept])),
    newestId: seen[0]?.id,
    oldestId: seen.at(-1)?.id,
  };
}
