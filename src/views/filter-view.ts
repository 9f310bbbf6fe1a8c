// The viewer's filters on the read side: loaded and compiled once per batch of statuses, then
// matched against each status (the boosted original's content for a boost) in the context the
// caller reads in. A result lists the filters of that context (every matching filter when the
// caller names none: favourites, bookmarks, search, a status just posted; the client then
// decides, as with Mastodon's answers), and a `hide` filter of the context removes the status
// from what is read (timelines and notifications already leave such statuses out while filling
// a page: services/filters/hidden.ts). Results are per viewer: never part of a cached rendering.

import type { FilterContext } from "../domain/filter.ts";
import {
  type CompiledFilter,
  compileFilters,
  type FilterMatch,
  matchesInContext,
  matchStatus,
} from "../domain/filter-match.ts";
import type { MediaAttachment } from "../domain/media.ts";
import type { Status } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import { viewerFilterRecords } from "../services/filters/viewer-filters.ts";
import type { PollView } from "./poll-view.ts";

/** The viewer's filters in force now; none for an anonymous reader. */
export async function loadViewerFilters(
  ctx: ServiceContext,
  viewerId: string | null,
): Promise<CompiledFilter[]> {
  if (viewerId === null) return [];
  const filters = await viewerFilterRecords(ctx, viewerId);
  return filters.length === 0 ? [] : compileFilters(filters, ctx.clock.now());
}

/** What a status's matching needs from its batch. */
export interface FilterInputs {
  media: ReadonlyMap<string, MediaAttachment>;
  polls: ReadonlyMap<string, PollView>;
}

/**
 * The filters matching a status (with its boosted original, if any) in `context`; null when a
 * `hide` filter of the context matches, i.e. the status is not to be shown at all.
 */
export function filterStatus(
  filters: readonly CompiledFilter[],
  status: Status,
  original: Status | null,
  inputs: FilterInputs,
  context: FilterContext | undefined,
): FilterMatch[] | null {
  const matches = matchStatus(filters, status, original, {
    mediaDescription: (id) => inputs.media.get(id)?.description ?? null,
    pollOptions: (id) => inputs.polls.get(id)?.poll.options.map((o) => o.title) ?? [],
  });
  return context === undefined ? matches : matchesInContext(matches, context);
}
