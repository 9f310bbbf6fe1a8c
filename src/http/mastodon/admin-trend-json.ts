// Renders the staff's hashtags, trending statuses and links (Admin::Tag, Status and Trends::Link
// with `requires_review`). One batch for a whole page.

import type { PreviewCard } from "../../domain/preview-card.ts";
import type { Status } from "../../domain/status.ts";
import { reviewIdOf, type TrendReview } from "../../domain/trend-review.ts";
import { type AdminTagJson, serializeAdminTag } from "../../serialization/mastodon/admin-tag.ts";
import { serializePreviewCard } from "../../serialization/mastodon/preview-card.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { Reviewed } from "../../services/discovery/trend-admin.ts";
import { loadTagViews } from "../../views/tag-view.ts";
import { urlContext } from "./account-json.ts";
import { renderStatuses } from "./status-json.ts";

const reviewRequired = (ctx: ServiceContext) => ctx.settings.trendsRequireReview === true;

/** Hashtags (by normalised name) with their reviews, as Admin::Tag. */
export async function renderAdminTags(
  ctx: ServiceContext,
  viewerId: string,
  tags: readonly Reviewed<string>[],
): Promise<AdminTagJson[]> {
  const names = tags.map(({ item, review }) => ({
    display: review?.displayName ?? item,
    normalized: item,
  }));
  const views = await loadTagViews(ctx, viewerId, names);
  return views.map((view, i) =>
    serializeAdminTag(view, tags[i]?.review, reviewRequired(ctx), ctx.settings.publicUrl),
  );
}

/** Admin::Tag from its review alone. */
export async function renderAdminTag(
  ctx: ServiceContext,
  viewerId: string,
  review: TrendReview,
): Promise<AdminTagJson> {
  const [json] = await renderAdminTags(ctx, viewerId, [{ item: review.key, review }]);
  return json as AdminTagJson;
}

export async function renderAdminStatuses(
  ctx: ServiceContext,
  viewerId: string,
  statuses: readonly Reviewed<Status>[],
) {
  const reviews = new Map(statuses.map((s) => [s.item.id, s.review]));
  const json = await renderStatuses(
    ctx,
    statuses.map((s) => s.item),
    viewerId,
  );
  return json.map((status) => ({
    ...status,
    requires_review: (reviews.get(status.id)?.reviewedAt ?? null) === null,
  }));
}

export function renderAdminLinks(ctx: ServiceContext, links: readonly Reviewed<PreviewCard>[]) {
  const urls = urlContext(ctx);
  return links.map(({ item, review }) => ({
    ...serializePreviewCard(item, urls),
    id: reviewIdOf("link", item.url),
    requires_review: review === undefined || review.reviewedAt === null,
  }));
}
