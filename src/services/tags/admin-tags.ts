// The staff's hashtags (Mastodon's /api/v1/admin/tags): every hashtag that trended (its review
// was asked for) or that a moderator set flags on, with its review (domain/trend-review.ts).
// Wren keeps no table of every tag: a tag id that has no review yet is looked for among the tags
// of recent public statuses, as hashtag search finds them.

import { notFound, unprocessable } from "../../domain/errors.ts";
import { compareIds } from "../../domain/ids.ts";
import { emptyReview, reviewIdOf, type TrendReview } from "../../domain/trend-review.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { allReviews, reviewById, updateReview } from "../discovery/trend-reviews.ts";
import { recentTags } from "../search/search-hashtags.ts";
import { parseTagName } from "./tag-name.ts";

/** The reviewed hashtags, by id, newest-first paging as Mastodon's admin lists. */
export async function listAdminTags(ctx: ServiceContext, page: IdPage): Promise<TrendReview[]> {
  const all = (await allReviews(ctx, "tag")).sort((a, b) => compareIds(b.id, a.id));
  const inPage = all
    .filter((r) => page.maxId === undefined || compareIds(r.id, page.maxId) < 0)
    .filter((r) => page.sinceId === undefined || compareIds(r.id, page.sinceId) > 0)
    .filter((r) => page.minId === undefined || compareIds(r.id, page.minId) > 0);
  return page.minId !== undefined ? inPage.slice(-page.limit) : inPage.slice(0, page.limit);
}

/** The hashtag of `id` with its review (an empty one when it was never reviewed), or 404. */
export async function findAdminTag(ctx: ServiceContext, id: string): Promise<TrendReview> {
  const review = await reviewById(ctx, "tag", id);
  if (review) return review;
  for (const name of await recentTags(ctx)) {
    if (reviewIdOf("tag", name) === id) return emptyReview("tag", name);
  }
  throw notFound();
}

export interface TagChanges {
  displayName?: string | undefined;
  trendable?: boolean | undefined;
  usable?: boolean | undefined;
  listable?: boolean | undefined;
}

/** Sets the flags given; the display name may only change the case of the name (Mastodon). */
export async function updateAdminTag(
  ctx: ServiceContext,
  name: string,
  changes: TagChanges,
): Promise<TrendReview> {
  let displayName: string | null | undefined;
  if (changes.displayName !== undefined) {
    const parsed = parseTagName(changes.displayName);
    if (changes.displayName.trim() === "") displayName = null;
    else if (parsed?.normalized === name) displayName = parsed.display;
    else throw unprocessable("Validation failed: Display name must match the hashtag's name");
  }
  const at = ctx.clock.now().toISOString();
  return updateReview(ctx, "tag", name, (review) => ({
    ...review,
    ...(displayName !== undefined ? { displayName } : {}),
    ...(changes.usable !== undefined ? { usable: changes.usable } : {}),
    ...(changes.listable !== undefined ? { listable: changes.listable } : {}),
    ...(changes.trendable !== undefined ? { trendable: changes.trendable, reviewedAt: at } : {}),
  }));
}
