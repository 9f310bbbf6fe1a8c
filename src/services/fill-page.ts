// The one pager for lists filtered after they are read: timelines (statuses the viewer may not
// see, accounts they shut out), notifications, favourites, bookmarks and the account lists
// behind boosts and favourites. Reading just `limit` items and dropping some would answer short
// or even empty pages, and clients stop paging at an empty page although older items exist; so
// the source is read in batches, walking on from the cursor until the page is full, the source
// runs dry, or a bound on the work is reached (the page may then come back short; the ids looked
// at still let the client page on past it).
//
// Mastodon's window semantics are kept: without min_id a page is the newest `limit` items below
// max_id (and above since_id); with min_id it is the oldest `limit` items above min_id (and below
// max_id), still returned newest first; since_id is ignored when min_id is given.

import type { IdPage } from "../storage/ports.ts";

/** Most source items read for one page before giving up on filling it. */
export const MAX_SCANNED = 4000;
const MAX_BATCH = 400;

export interface PagedSource<E, T> {
  /** Reads one window of the unfiltered source, newest first, honouring IdPage exactly. */
  read(page: IdPage): Promise<E[]>;
  /** The paging id of an item (a status id, or an edge's or notification's own id). */
  idOf(item: E): string;
  /** What is shown of each item of a batch, in the batch's order; undefined hides it. */
  keep(batch: readonly E[]): Promise<(T | undefined)[]>;
}

export interface FilledPage<T> {
  items: T[];
  /**
   * Paging ids of the newest and oldest items looked at (up to the last one kept), for a Link
   * header that moves on past hidden items; undefined when nothing was read.
   */
  newestId: string | undefined;
  oldestId: string | undefined;
}

interface Seen<T> {
  id: string;
  kept: T | undefined;
}

function nextBatchSize(limit: number, previous: number | undefined): number {
  // The first read asks for a little more than a page, since a few items are usually dropped;
  // sparse sources (a heavily filtered home) then grow the batch to cut round trips.
  if (previous === undefined) return Math.min(limit + Math.ceil(limit / 2) + 1, MAX_BATCH);
  return Math.min(previous * 2, MAX_BATCH);
}

export async function fillPage<E, T>(
  page: IdPage,
  source: PagedSource<E, T>,
): Promise<FilledPage<T>> {
  const limit = Math.max(page.limit, 1);
  // min_id pages climb towards newer items; the others descend towards older ones.
  const upward = page.minId !== undefined;
  let cursor = upward ? page.minId : page.maxId;
  // Newest first, like the batches.
  let seen: Seen<T>[] = [];
  let kept = 0;
  let scanned = 0;
  let size: number | undefined;
  while (kept < limit && scanned < MAX_SCANNED) {
    size = nextBatchSize(limit, size);
    const batch = await source.read(
      upward
        ? { limit: size, minId: cursor, maxId: page.maxId }
        : { limit: size, maxId: cursor, sinceId: page.sinceId },
    );
    if (batch.length === 0) break;
    scanned += batch.length;
    const shown = await source.keep(batch);
    const entries = batch.map((item, i) => ({ id: source.idOf(item), kept: shown[i] }));
    kept += entries.filter((e) => e.kept !== undefined).length;
    // A batch read upward is newer than everything so far.
    seen = upward ? [...entries, ...seen] : [...seen, ...entries];
    if (batch.length < size) break;
    cursor = (upward ? entries[0] : entries.at(-1))?.id;
  }
  return trimmed(seen, kept, limit, upward);
}

/**
 * Keeps `limit` shown items: the newest when descending, the oldest (nearest min_id) when
 * climbing, and for a full page only the items looked at up to the last one kept, so paging
 * resumes there.
 */
function trimmed<T>(all: Seen<T>[], kept: number, limit: number, upward: boolean): FilledPage<T> {
  let seen = all;
  if (kept >= limit) {
    let count = 0;
    if (upward) {
      let start = seen.length;
      while (start > 0 && count < limit) if (seen[--start]?.kept !== undefined) count++;
      seen = seen.slice(start);
    } else {
      let end = 0;
      while (end < seen.length && count < limit) if (seen[end++]?.kept !== undefined) count++;
      seen = seen.slice(0, end);
    }
  }
  return {
    items: seen.flatMap((e) => (e.kept === undefined ? [] : [e.kept])),
    newestId: seen[0]?.id,
    oldestId: seen.at(-1)?.id,
  };
}
