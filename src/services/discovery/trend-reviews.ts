// Where trend reviews (domain/trend-review.ts) are kept: the durable key–value store, one entry
// per reviewed item under ["wren", "trendReview", kind, id], so both backends hold them and
// `wren export` carries them. Their writes signal a change to the other processes (migration
// 0034), which reread reviews on every trends request anyway: a decision shows everywhere at once.

import {
  emptyReview,
  reviewIdOf,
  type TrendKind,
  type TrendReview,
} from "../../domain/trend-review.ts";
import type { ServiceContext } from "../context.ts";

const PREFIX = ["wren", "trendReview"] as const;
const keyOf = (kind: TrendKind, id: string) => [...PREFIX, kind, id];

/** The reviews of these items (by their keys: tag names, status ids, URLs, hosts) that exist. */
export async function reviewsOf(
  ctx: ServiceContext,
  kind: TrendKind,
  keys: readonly string[],
): Promise<Map<string, TrendReview>> {
  const unique = [...new Set(keys)];
  const entries = await ctx.storage.kv.getMany(unique.map((k) => keyOf(kind, reviewIdOf(kind, k))));
  const found = new Map<string, TrendReview>();
  for (const entry of entries) {
    const review = entry?.value as TrendReview | undefined;
    if (review) found.set(review.key, review);
  }
  return found;
}

export async function reviewById(
  ctx: ServiceContext,
  kind: TrendKind,
  id: string,
): Promise<TrendReview | undefined> {
  return (await ctx.storage.kv.get(keyOf(kind, id)))?.value as TrendReview | undefined;
}

/** Every review of a kind (the staff's lists: small, one per item that trended or was reviewed). */
export async function allReviews(ctx: ServiceContext, kind: TrendKind): Promise<TrendReview[]> {
  return (await ctx.storage.kv.list([...PREFIX, kind])).map((e) => e.value as TrendReview);
}

/** Changes an item's review (created when it has none) with `change`, and returns it. */
export async function updateReview(
  ctx: ServiceContext,
  kind: TrendKind,
  key: string,
  change: (review: TrendReview) => TrendReview,
): Promise<TrendReview> {
  const id = reviewIdOf(kind, key);
  const now = ctx.clock.now().toISOString();
  // Compare-and-set, so that two moderators' changes of one item (or a review request racing a
  // decision) never undo each other.
  for (;;) {
    const current = (await ctx.storage.kv.get(keyOf(kind, id)))?.value as TrendReview | undefined;
    const next = change(current ?? emptyReview(kind, key));
    if (
      await ctx.storage.kv.compareAndSet(
        current,
        { key: keyOf(kind, id), value: next, expiresAt: null },
        now,
      )
    ) {
      return next;
    }
  }
}

/** A moderator's decision: approve (true) or reject (false). */
export function decide(
  ctx: ServiceContext,
  kind: TrendKind,
  key: string,
  trendable: boolean,
): Promise<TrendReview> {
  const at = ctx.clock.now().toISOString();
  return updateReview(ctx, kind, key, (r) => ({ ...r, trendable, reviewedAt: at }));
}

/**
 * Marks items that trend with no review yet as waiting for one (Mastodon's `requested_review_at`),
 * so they show as `requires_review` and the hashtags among them in the staff's tag list. Only
 * items without a review are written: once per item, whichever process sees it trend first.
 */
export async function requestReviews(
  ctx: ServiceContext,
  kind: TrendKind,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  const known = await reviewsOf(ctx, kind, keys);
  const now = ctx.clock.now().toISOString();
  for (const key of keys) {
    if (known.has(key)) continue;
    const review = { ...emptyReview(kind, key), requestedReviewAt: now };
    await ctx.storage.kv.compareAndSet(
      undefined,
      { key: keyOf(kind, review.id), value: review, expiresAt: null },
      now,
    );
  }
}
