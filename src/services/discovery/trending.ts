// What one reader is shown of the trends (discovery/trends.ts): a slice of the trending tags, and
// of the trending statuses those the public timeline would show them (not from accounts they
// shut out, not hidden by their filters), offset-paged as Mastodon pages trends. Only what the
// staff's reviews let trend is shown (discovery/trend-reviews.ts): never a rejected item, nor an
// unreviewed one when the instance requires review; the reviews are read on every request.

import { compareIds } from "../../domain/ids.ts";
import type { PreviewCard } from "../../domain/preview-card.ts";
import { mayTrend } from "../../domain/trend-review.ts";
import type { IdPage } from "../../storage/ports.ts";
import { loadStatusCards } from "../cards/card-records.ts";
import type { ServiceContext } from "../context.ts";
import { keepPublic } from "../timelines/public-filter.ts";
import type { ResolvedEntry } from "../timelines/resolve-entries.ts";
import { reviewsOf } from "./trend-reviews.ts";
import { currentTrends } from "./trends.ts";

export interface Slice {
  offset: number;
  limit: number;
}

const reviewRequired = (ctx: ServiceContext) => ctx.settings.trendsRequireReview === true;

/** The trending tags the public may see, most trending first. */
export async function shownTags(ctx: ServiceContext, tags: readonly string[]): Promise<string[]> {
  const reviews = await reviewsOf(ctx, "tag", tags);
  return tags.filter((tag) => mayTrend(reviews.get(tag), reviewRequired(ctx)));
}

/** The trending statuses the public may see, most trending first. */
export async function shownStatuses(
  ctx: ServiceContext,
  ids: readonly string[],
): Promise<string[]> {
  const reviews = await reviewsOf(ctx, "status", ids);
  return ids.filter((id) => mayTrend(reviews.get(id), reviewRequired(ctx)));
}

/** A link's host, its publisher (Mastodon's preview card provider). */
export const publisherOf = (url: string): string => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
};

/**
 * The cards the public may see: a link's own decision, else its publisher's (Mastodon's
 * preview card provider), else the instance's default.
 */
export async function shownLinks(
  ctx: ServiceContext,
  cards: readonly PreviewCard[],
): Promise<PreviewCard[]> {
  const [links, publishers] = await Promise.all([
    reviewsOf(
      ctx,
      "link",
      cards.map((c) => c.url),
    ),
    reviewsOf(
      ctx,
      "publisher",
      cards.map((c) => publisherOf(c.url)),
    ),
  ]);
  return cards.filter((card) => {
    const decided =
      links.get(card.url)?.trendable ?? publishers.get(publisherOf(card.url))?.trendable ?? null;
    return decided === null ? !reviewRequired(ctx) : decided;
  });
}

export async function trendingTagNames(ctx: ServiceContext, slice: Slice): Promise<string[]> {
  const tags = await shownTags(ctx, (await currentTrends(ctx)).tags);
  return tags.slice(slice.offset, slice.offset + slice.limit);
}

export async function trendingStatuses(
  ctx: ServiceContext,
  viewerId: string | null,
  slice: Slice,
): Promise<{ page: ResolvedEntry[]; read: number }> {
  const statuses = await shownStatuses(ctx, (await currentTrends(ctx)).statuses);
  const ids = statuses.slice(slice.offset, slice.offset + slice.limit);
  const records = await ctx.storage.statuses.getMany(ids);
  const entries = ids.flatMap((id) => {
    const status = records.get(id);
    return status ? [{ account_id: status.accountId, status_id: id }] : [];
  });
  const kept = await keepPublic(ctx, viewerId, entries, { withReplies: false });
  return { page: kept.filter((e): e is ResolvedEntry => e !== undefined), read: ids.length };
}

/** Cards are read for this many trending statuses at a time, until the slice is full. */
const CARD_CHUNK = 40;

/**
 * Trending links: the cards of the trending statuses, most trending first, each URL once. Wren
 * keeps no per-link counts: a link trends through the statuses that share it, which the status
 * trends already bound (distinct authors, public, no sensitive ones).
 */
export async function trendingLinks(ctx: ServiceContext, slice: Slice): Promise<PreviewCard[]> {
  const statuses = await shownStatuses(ctx, (await currentTrends(ctx)).statuses);
  const wanted = slice.offset + slice.limit;
  const cards = new Map<string, PreviewCard>();
  const refused = new Set<string>();
  for (let at = 0; at < statuses.length && cards.size < wanted; at += CARD_CHUNK) {
    const ids = statuses.slice(at, at + CARD_CHUNK);
    const found = await loadStatusCards(ctx, ids);
    const fresh = ids.flatMap((id) => {
      const card = found.get(id);
      return card && !cards.has(card.url) && !refused.has(card.url) ? [card] : [];
    });
    const shown = new Set(await shownLinks(ctx, fresh));
    for (const card of fresh) {
      if (!shown.has(card)) refused.add(card.url);
      else if (!cards.has(card.url)) cards.set(card.url, card);
    }
  }
  return [...cards.values()].slice(slice.offset, wanted);
}

/**
 * The statuses behind a trending link (Mastodon's link timeline), newest first and id-paged, as
 * the reader may see them; undefined when the URL is not a trending link. Only trending statuses
 * are searched: Wren keeps no index from a card to every status that shows it.
 */
export async function linkTimeline(
  ctx: ServiceContext,
  viewerId: string | null,
  url: string,
  page: IdPage,
): Promise<ResolvedEntry[] | undefined> {
  const statuses = await shownStatuses(ctx, (await currentTrends(ctx)).statuses);
  const cards = await loadStatusCards(ctx, statuses);
  const ids = statuses.filter((id) => cards.get(id)?.url === url);
  const card = ids[0] === undefined ? undefined : cards.get(ids[0]);
  if (!card || (await shownLinks(ctx, [card])).length === 0) return undefined;
  const inPage = ids
    .filter((id) => page.maxId === undefined || compareIds(id, page.maxId) < 0)
    .filter((id) => page.sinceId === undefined || compareIds(id, page.sinceId) > 0)
    .filter((id) => page.minId === undefined || compareIds(id, page.minId) > 0)
    .sort((a, b) => compareIds(b, a));
  // min_id pages upwards from it: the oldest ones after it, shown newest first.
  const chosen = page.minId !== undefined ? inPage.slice(-page.limit) : inPage.slice(0, page.limit);
  const records = await ctx.storage.statuses.getMany(chosen);
  const entries = chosen.flatMap((id) => {
    const status = records.get(id);
    return status ? [{ account_id: status.accountId, status_id: id }] : [];
  });
  const kept = await keepPublic(ctx, viewerId, entries, { withReplies: false });
  return kept.filter((e): e is ResolvedEntry => e !== undefined);
}
