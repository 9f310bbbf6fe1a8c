// The staff's say over trends (Mastodon's trend review): each hashtag, status, link and link
// publisher (a link's host) that trended or that a moderator looked at has a review, kept by its
// id. `trendable` is the decision: true approved, false rejected, null not reviewed yet. Whether
// an unreviewed item may trend depends on the instance setting (WREN_TRENDS_REQUIRE_REVIEW):
// Mastodon's `trendable_by_default` the other way round. Hashtags also carry their other flags
// (Mastodon's Admin::Tag): `usable` (false: the hashtag timeline is empty and search and trends
// leave it out) and `listable` (false: hashtag search leaves it out); null for those is true.

import { createHash } from "node:crypto";

export const TREND_KINDS = ["tag", "status", "link", "publisher"] as const;
export type TrendKind = (typeof TREND_KINDS)[number];

export interface TrendReview {
  kind: TrendKind;
  /** Tag: from the normalised name; status: the status id; link, publisher: from URL, host. */
  id: string;
  /** The normalised tag name, the status id, the link's URL or the publisher's host. */
  key: string;
  trendable: boolean | null;
  /** When it first trended without a decision (ISO); null: never asked for. */
  requestedReviewAt: string | null;
  /** When a moderator decided (ISO); null: not reviewed. */
  reviewedAt: string | null;
  /** Tags only: the spelling shown (`display_name`); null: the normalised name. */
  displayName?: string | null;
  /** Tags only; null counts as true. */
  usable?: boolean | null;
  /** Tags only; null counts as true. */
  listable?: boolean | null;
}

/**
 * A stable numeric id for something Wren keeps no table of (a hashtag, a link, a host): the
 * first 52 bits of its SHA-256, as a decimal string (fits a JavaScript number and a bigint).
 */
export function nameId(text: string): string {
  return BigInt(`0x${createHash("sha256").update(text).digest("hex").slice(0, 13)}`).toString();
}

/** The id of a review of `key` (the id clients see: a tag's, a status's, a link's). */
export function reviewIdOf(kind: TrendKind, key: string): string {
  switch (kind) {
    case "tag":
      return nameId(key);
    case "status":
      return key;
    case "link":
      return nameId(`link:${key}`);
    case "publisher":
      return nameId(`publisher:${key}`);
  }
}

export function emptyReview(kind: TrendKind, key: string): TrendReview {
  return {
    kind,
    id: reviewIdOf(kind, key),
    key,
    trendable: null,
    requestedReviewAt: null,
    reviewedAt: null,
    ...(kind === "tag" ? { displayName: null, usable: null, listable: null } : {}),
  };
}

/** Mastodon's `requires_review?`: it trended, and nobody decided yet. */
export const requiresReview = (review: TrendReview | undefined): boolean =>
  review !== undefined && review.reviewedAt === null && review.requestedReviewAt !== null;

/** Whether the item may be shown in the public trends on its own review alone. */
export function mayTrend(review: TrendReview | undefined, reviewRequired: boolean): boolean {
  if (review?.kind === "tag" && review.usable === false) return false;
  const decided = review?.trendable ?? null;
  return decided === null ? !reviewRequired : decided;
}

/** Mastodon's `trendable` as shown: the decision, or the default when there is none. */
export const trendableShown = (review: TrendReview | undefined, reviewRequired: boolean) =>
  review?.trendable ?? !reviewRequired;
