// The staff's view of the trends (Mastodon's /api/v1/admin/trends/*): every candidate, shown or
// not, with its review, and the decisions on them. Links and publishers are found by their id
// among the current candidates and the items already reviewed.

import { notFound } from "../../domain/errors.ts";
import type { PreviewCard } from "../../domain/preview-card.ts";
import type { Status } from "../../domain/status.ts";
import { emptyReview, reviewIdOf, type TrendReview } from "../../domain/trend-review.ts";
import { getPreviewCard, loadStatusCards } from "../cards/card-records.ts";
import type { ServiceContext } from "../context.ts";
import { findAdminTag } from "../tags/admin-tags.ts";
import { allReviews, decide, reviewsOf } from "./trend-reviews.ts";
import { publisherOf } from "./trending.ts";
import { currentTrends } from "./trends.ts";

export interface Reviewed<T> {
  item: T;
  review: TrendReview | undefined;
}

export async function candidateTags(ctx: ServiceContext): Promise<Reviewed<string>[]> {
  const { tags } = await currentTrends(ctx);
  const reviews = await reviewsOf(ctx, "tag", tags);
  return tags.map((item) => ({ item, review: reviews.get(item) }));
}

export async function candidateStatuses(ctx: ServiceContext): Promise<Reviewed<Status>[]> {
  const { statuses: ids } = await currentTrends(ctx);
  const [records, reviews] = await Promise.all([
    ctx.storage.statuses.getMany(ids),
    reviewsOf(ctx, "status", ids),
  ]);
  return ids.flatMap((id) => {
    const item = records.get(id);
    return item && !item.deleted ? [{ item, review: reviews.get(id) }] : [];
  });
}

/** The cards of the candidate statuses, most trending first, each URL once. */
export async function candidateLinks(ctx: ServiceContext): Promise<Reviewed<PreviewCard>[]> {
  const { statuses } = await currentTrends(ctx);
  const found = await loadStatusCards(ctx, statuses);
  const cards = new Map<string, PreviewCard>();
  for (const id of statuses) {
    const card = found.get(id);
    if (card && !cards.has(card.url)) cards.set(card.url, card);
  }
  const reviews = await reviewsOf(ctx, "link", [...cards.keys()]);
  return [...cards.values()].map((item) => ({ item, review: reviews.get(item.url) }));
}

/** Publishers: those of the candidate links, then the others reviewed, each with its review. */
export async function candidatePublishers(ctx: ServiceContext): Promise<TrendReview[]> {
  const hosts = [
    ...new Set((await candidateLinks(ctx)).map((l) => publisherOf(l.item.url))),
  ].filter((host) => host !== "");
  const reviews = await reviewsOf(ctx, "publisher", hosts);
  const listed = hosts.map((host) => reviews.get(host) ?? emptyReview("publisher", host));
  const others = (await allReviews(ctx, "publisher")).filter((r) => !reviews.has(r.key));
  return [...listed, ...others];
}

export async function decideTag(ctx: ServiceContext, id: string, trendable: boolean) {
  const tag = await findAdminTag(ctx, id);
  return decide(ctx, "tag", tag.key, trendable);
}

export async function decideStatus(
  ctx: ServiceContext,
  id: string,
  trendable: boolean,
): Promise<Reviewed<Status>> {
  const item = await ctx.storage.statuses.get(id);
  if (!item || item.deleted) throw notFound();
  return { item, review: await decide(ctx, "status", id, trendable) };
}

export async function decideLink(
  ctx: ServiceContext,
  id: string,
  trendable: boolean,
): Promise<Reviewed<PreviewCard>> {
  let card = (await candidateLinks(ctx)).find((l) => reviewIdOf("link", l.item.url) === id)?.item;
  if (!card) {
    // A link reviewed before that trends no more.
    const reviewed = (await allReviews(ctx, "link")).find((r) => r.id === id);
    card = reviewed ? ((await getPreviewCard(ctx, reviewed.key)) ?? undefined) : undefined;
  }
  if (!card) throw notFound();
  return { item: card, review: await decide(ctx, "link", card.url, trendable) };
}

export async function decidePublisher(
  ctx: ServiceContext,
  id: string,
  trendable: boolean,
): Promise<TrendReview> {
  const publisher = (await candidatePublishers(ctx)).find((p) => p.id === id);
  if (!publisher) throw notFound();
  return decide(ctx, "publisher", publisher.key, trendable);
}
