// Loads status views and serialises them for the client API: the one way route modules turn
// Status records (or timeline entries) into Mastodon JSON. Hydration is batched per call. The
// hot read routes take the JSON as text (`…Text`), reusing the rendered parts of unchanged
// statuses (serialization/mastodon/status-text.ts); the rest take objects to embed.

import { notFound } from "../../domain/errors.ts";
import type { FilterContext } from "../../domain/filter.ts";
import type { Status } from "../../domain/status.ts";
import {
  type StatusJson,
  type StatusSerializeOptions,
  serializeStatus,
} from "../../serialization/mastodon/status.ts";
import { StatusTextRenderer } from "../../serialization/mastodon/status-text.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { PostedStatus } from "../../services/statuses/create-status.ts";
import {
  loadResolvedViews,
  loadStatusViews,
  type StatusView,
  type StatusWithOriginal,
} from "../../views/status-view.ts";
import { urlContext } from "./account-json.ts";

export type { StatusJson };

/** How statuses are rendered: serialisation options and the viewer's filter context. */
export interface RenderOptions extends StatusSerializeOptions {
  /**
   * Where the viewer reads them: their filters of that context mark the statuses, and `hide`
   * filters leave them out. Absent: every matching filter is listed and nothing is left out.
   */
  filterContext?: FilterContext;
}

/**
 * The statuses as Mastodon JSON, in order, for `viewerId` (null: anonymous). Deleted statuses,
 * statuses of vanished authors and reblogs of vanished originals are left out, so the result
 * can be shorter than the input. Visibility is not checked here: pass what the viewer may see.
 */
export async function renderStatuses(
  ctx: ServiceContext,
  statuses: readonly Status[],
  viewerId: string | null,
  options: RenderOptions = {},
): Promise<StatusJson[]> {
  // The answer to a deletion (withSource) shows the just-deleted status one last time.
  const live = options.withSource ? statuses : statuses.filter((s) => !s.deleted);
  const urls = urlContext(ctx);
  return (await loadStatusViews(ctx, live, viewerId, options.filterContext)).map((view) =>
    serializeStatus(view, urls, options),
  );
}

const renderers = new WeakMap<ServiceContext, StatusTextRenderer>();

function textRenderer(ctx: ServiceContext): StatusTextRenderer {
  let renderer = renderers.get(ctx);
  if (!renderer) {
    renderer = new StatusTextRenderer(urlContext(ctx));
    renderers.set(ctx, renderer);
  }
  return renderer;
}

function liveViews(
  ctx: ServiceContext,
  statuses: readonly Status[],
  viewerId: string | null,
): Promise<StatusView[]> {
  return loadStatusViews(
    ctx,
    statuses.filter((s) => !s.deleted),
    viewerId,
  );
}

/** renderStatuses as a JSON array's text. */
export async function renderStatusesText(
  ctx: ServiceContext,
  statuses: readonly Status[],
  viewerId: string | null,
): Promise<string> {
  return textRenderer(ctx).statuses(await liveViews(ctx, statuses, viewerId));
}

/** renderStatus as JSON text. */
export async function renderStatusText(
  ctx: ServiceContext,
  status: Status,
  viewerId: string | null,
): Promise<string> {
  const [view] = await liveViews(ctx, [status], viewerId);
  if (!view) throw notFound();
  return textRenderer(ctx).status(view);
}

/**
 * The answer to a post: renderStatusText, where a status this request stored is rendered without
 * reading what it cannot have yet (counters, card, the viewer's flags: loadResolvedViews).
 */
export async function renderPostedStatusText(
  ctx: ServiceContext,
  posted: PostedStatus,
  viewerId: string,
): Promise<string> {
  const { status } = posted;
  if (status.deleted) throw notFound();
  const fresh = new Set(posted.freshlyPosted ? [status.id] : []);
  const [view] = await loadStatusViews(ctx, [status], viewerId, undefined, fresh);
  if (!view) throw notFound();
  return textRenderer(ctx).status(view);
}

/** One status as Mastodon JSON; a status that cannot be shown (see renderStatuses) is a 404. */
export async function renderStatus(
  ctx: ServiceContext,
  status: Status,
  viewerId: string | null,
  options: StatusSerializeOptions = {},
): Promise<StatusJson> {
  const [json] = await renderStatuses(ctx, [status], viewerId, options);
  if (!json) throw notFound();
  return json;
}

/**
 * A timeline page as JSON text: its statuses come resolved from the timeline service (each with
 * its boosted original), so hydration reads none of them again.
 */
export async function renderResolvedText(
  ctx: ServiceContext,
  page: readonly StatusWithOriginal[],
  viewerId: string | null,
  filterContext: FilterContext,
): Promise<string> {
  return textRenderer(ctx).statuses(await loadResolvedViews(ctx, page, viewerId, filterContext));
}

/**
 * renderResolvedText as UTF-8 bytes, written from the kept parts' bytes with only the fresh
 * parts encoded (serialization/mastodon/status-text.ts): what the timeline routes answer.
 */
export async function renderResolvedBytes(
  ctx: ServiceContext,
  page: readonly StatusWithOriginal[],
  viewerId: string | null,
  filterContext: FilterContext,
): Promise<Buffer<ArrayBuffer>> {
  return textRenderer(ctx).statusesBytes(
    await loadResolvedViews(ctx, page, viewerId, filterContext),
  );
}

/**
 * One resolved status as JSON text for `viewerId`, marked by their filters of `filterContext`
 * (the streaming API's `update` payloads); undefined when it cannot be shown (see renderStatuses).
 */
export async function renderResolvedStatusText(
  ctx: ServiceContext,
  item: StatusWithOriginal,
  viewerId: string | null,
  filterContext: FilterContext,
): Promise<string | undefined> {
  const [view] = await loadResolvedViews(ctx, [item], viewerId, filterContext);
  return view ? textRenderer(ctx).status(view) : undefined;
}
