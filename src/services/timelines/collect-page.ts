// Pages a newest-first source whose items are filtered per viewer after they are read. A page
// must still hold `limit` items when some are filtered out, so the source is read in batches,
// walking further from the cursor until the page is full, the source runs dry, or a bound on the
// work is reached (a page may then come back short; its Link header still moves on past it).
//
// Mastodon's window semantics are kept: without min_id a page is the newest `limit` items below
// max_id (and above since_id); with min_id it is the oldest `limit` items above min_id (and below
// max_id), still returned newest first; since_id is ignored when min_id is given.

import type { IdPage } from "../../storage/ports.ts";

/** Most source items read for one page before giving up on filling it. */
export const MAX_SCANNED = 4000;
const MAX_BATCH = 400;

export interface PagedSource<T> {
  /** Reads one window of the unfiltered source, newest first, honouring IdPage exactly. */
  read(page: IdPage): Promise<T[]>;
  /** The paging id of an item (the status id of an entry). */
  idOf(item: T): string;
  /** The items of a batch the viewer gets, in the order given. */
  keep(batch: readonly T[]): Promise<T[]>;
}

function nextBatchSize(limit: number, previous: number | undefined): number {
  // The first read asks for a little more than a page, since a few items are usually dropped;
  // sparse sources (a heavily filtered home) then grow the batch to cut round trips.
  if (previous === undefined) return Math.min(limit + Math.ceil(limit / 2) + 1, MAX_BATCH);
  return Math.min(previous * 2, MAX_BATCH);
}

export async function collectPage<T>(page: IdPage, source: PagedSource<T>): Promise<T[]> {
  const limit = Math.max(page.limit, 1);
  return page.minId !== undefined
    ? collectAscending(limit, page.minId, page.maxId, source)
    : collectDescending(limit, page.maxId, page.sinceId, source);
}

async function collectDescending<T>(
  limit: number,
  maxId: string | undefined,
  sinceId: string | undefined,
  source: PagedSource<T>,
): Promise<T[]> {
  const collected: T[] = [];
  let cursor = maxId;
  let size: number | undefined;
  let scanned = 0;
  while (collected.length < limit && scanned < MAX_SCANNED) {
    size = nextBatchSize(limit, size);
    const raw = await source.read({ limit: size, maxId: cursor, sinceId });
    if (raw.length === 0) break;
    scanned += raw.length;
    collected.push(...(await source.keep(raw)));
    if (raw.length < size) break;
    cursor = source.idOf(raw[raw.length - 1] as T);
  }
  return collected.slice(0, limit);
}

async function collectAscending<T>(
  limit: number,
  minId: string,
  maxId: string | undefined,
  source: PagedSource<T>,
): Promise<T[]> {
  // Gathered oldest first: each batch is the oldest `size` items above the cursor.
  const collected: T[] = [];
  let cursor = minId;
  let size: number | undefined;
  let scanned = 0;
  while (collected.length < limit && scanned < MAX_SCANNED) {
    size = nextBatchSize(limit, size);
    const raw = await source.read({ limit: size, minId: cursor, maxId });
    if (raw.length === 0) break;
    scanned += raw.length;
    collected.push(...(await source.keep(raw)).reverse());
    if (raw.length < size) break;
    cursor = source.idOf(raw[0] as T);
  }
  return collected.slice(0, limit).reverse();
}
