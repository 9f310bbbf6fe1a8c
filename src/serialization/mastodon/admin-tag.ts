// Mastodon's Admin::Tag (the staff's view of a hashtag) and the `requires_review` mark of the
// admin trends' statuses and links. Pure.

import { requiresReview, type TrendReview, trendableShown } from "../../domain/trend-review.ts";
import type { TagView } from "../../views/tag-view.ts";
import { serializeTagEntity, type TagEntityJson } from "./tag.ts";

export interface AdminTagJson extends TagEntityJson {
  trendable: boolean;
  usable: boolean;
  requires_review: boolean;
  listable: boolean;
}

export function serializeAdminTag(
  view: TagView,
  review: TrendReview | undefined,
  reviewRequired: boolean,
  publicUrl: string,
): AdminTagJson {
  return {
    ...serializeTagEntity(view, publicUrl),
    trendable: trendableShown(review, reviewRequired),
    usable: review?.usable ?? true,
    requires_review: requiresReview(review),
    listable: review?.listable ?? true,
  };
}

/** Mastodon's Admin::Trends::Links::PreviewCardProvider. */
export interface PublisherJson {
  id: string;
  domain: string;
  trendable: boolean;
  reviewed_at: string | null;
  requested_review_at: string | null;
  requires_review: boolean;
}

export function serializePublisher(review: TrendReview, reviewRequired: boolean): PublisherJson {
  return {
    id: review.id,
    domain: review.key,
    trendable: trendableShown(review, reviewRequired),
    reviewed_at: review.reviewedAt,
    requested_review_at: review.requestedReviewAt,
    requires_review: requiresReview(review),
  };
}
