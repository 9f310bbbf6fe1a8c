// The viewer's filter records as the read side uses them (a timeline's `hide` filters while it
// fills a page, and the matches marked on each status), kept between writes (viewer-memo.ts):
// both ask on every signed-in page. Kept as records: a filter's expiry is judged when compiled.

import type { CustomFilter } from "../../domain/filter.ts";
import type { ServiceContext } from "../context.ts";
import { keptForViewer, type ViewerPart } from "../viewer-memo.ts";

export const VIEWER_FILTERS: ViewerPart<readonly CustomFilter[]> = {
  name: "filters",
  kinds: ["relations"],
  read: (ctx, viewerId) => ctx.storage.filters.listByAccount(viewerId),
  size: (filters) => filters.length,
};

/** The viewer's filters, oldest first (do not change the list). */
export function viewerFilterRecords(
  ctx: ServiceContext,
  viewerId: string,
): readonly CustomFilter[] | Promise<readonly CustomFilter[]> {
  return keptForViewer(ctx, VIEWER_FILTERS, viewerId);
}
