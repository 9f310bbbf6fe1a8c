// Full-text search of statuses, for a signed-in viewer only (as Mastodon). Mastodon searches, in
// its index, the statuses the viewer wrote, favourited, bookmarked or was mentioned in, plus the
// public statuses of accounts that opted into search (`indexable`). Wren has no index: it scans
// those same sources, each up to its SCAN_LIMIT most recent entries, and keeps the statuses in
// which every query term occurs (see match-text.ts). Results are newest first, and only what the
// viewer may see, without authors the viewer blocks or mutes.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { domainBlockedAccounts } from "../graph/blocked-domains.ts";
import { mutedAccountIds } from "../graph/muted-accounts.ts";
import { visibleStatuses } from "../statuses/visibility.ts";
import { matchesTerms, queryTerms, searchableText } from "./match-text.ts";

/** How far back each source is scanned. */
export const SCAN_LIMIT = 2000;
const PAGE = 200;

export interface SearchStatusesInput {
  query: string;
  viewerId: string;
  /** Only statuses by this account. */
  accountId?: string | undefined;
  maxId?: string | undefined;
  minId?: string | undefined;
  limit: number;
  offset: number;
}

/** Up to SCAN_LIMIT items of a newest-first list paged by max id. */
async function scan<T>(
  page: (maxId: string | undefined) => Promise<T[]>,
  idOf: (item: T) => string,
): Promise<T[]> {
  const out: T[] = [];
  let maxId: string | undefined;
  while (out.length < SCAN_LIMIT) {
    const items = await page(maxId);
    out.push(...items);
    if (items.length < PAGE) break;
    maxId = idOf(items[items.length - 1] as T);
  }
  return out.slice(0, SCAN_LIMIT);
}

/** Ids of the statuses the viewer may search: own, favourited, bookmarked, mentioned, indexable. */
async function candidateIds(ctx: ServiceContext, viewerId: string): Promise<Set<string>> {
  const { statuses, favourites, bookmarks, notifications, accounts } = ctx.storage;
  const byId = (item: { id: string }) => item.id;
  const [own, favourited, bookmarked, mentions, publicEntries] = await Promise.all([
    scan((maxId) => statuses.listByAccount(viewerId, { limit: PAGE, maxId }), byId),
    scan((maxId) => favourites.listFrom(viewerId, { limit: PAGE, maxId }), byId),
    scan((maxId) => bookmarks.listFrom(viewerId, { limit: PAGE, maxId }), byId),
    scan(
      (maxId) => notifications.listFor(viewerId, { limit: PAGE, maxId }, { types: ["mention"] }),
      byId,
    ),
    scan(
      (maxId) => statuses.listPublicEntries({ limit: PAGE, maxId }, { origin: "all" }),
      (entry) => entry.status_id,
    ),
  ]);
  const authors = await accounts.getMany([...new Set(publicEntries.map((e) => e.account_id))]);
  return new Set([
    ...own.map((s) => s.id),
    ...favourited.map((f) => f.targetId),
    ...bookmarked.map((b) => b.targetId),
    ...mentions.flatMap((n) => (n.statusId ? [n.statusId] : [])),
    ...publicEntries.filter((e) => authors.get(e.account_id)?.indexable).map((e) => e.status_id),
  ]);
}

/** A pagination id as a number; anything else (a typo, a hostile value) sets no bound. */
function idBound(id: string | undefined): bigint | null {
  return id !== undefined && /^\d{1,20}$/.test(id) ? BigInt(id) : null;
}

const newestFirst = (a: Status, b: Status) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1);

export async function searchStatuses(
  ctx: ServiceContext,
  input: SearchStatusesInput,
): Promise<Status[]> {
  const terms = queryTerms(input.query);
  if (terms.length === 0 || input.limit <= 0) return [];
  const ids = await candidateIds(ctx, input.viewerId);
  const found = await ctx.storage.statuses.getMany([...ids]);
  const max = idBound(input.maxId);
  const min = idBound(input.minId);
  const matching = [...found.values()]
    .filter(
      (s) =>
        !s.deleted &&
        s.reblogOfId === null &&
        (input.accountId === undefined || s.accountId === input.accountId) &&
        (max === null || BigInt(s.id) < max) &&
        (min === null || BigInt(s.id) > min) &&
        matchesTerms(searchableText(s), terms),
    )
    .sort(newestFirst);
  const [blocked, muted, onBlockedDomains] = await Promise.all([
    ctx.storage.blocks.allTargetsFrom(input.viewerId),
    mutedAccountIds(ctx, input.viewerId),
    domainBlockedAccounts(
      ctx,
      input.viewerId,
      matching.map((s) => s.accountId),
    ),
  ]);
  const hidden = new Set([...blocked, ...muted, ...onBlockedDomains]);
  const visible = await visibleStatuses(
    ctx,
    input.viewerId,
    matching.filter((s) => !hidden.has(s.accountId)),
  );
  return visible.slice(input.offset, input.offset + input.limit);
}
