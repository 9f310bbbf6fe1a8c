// The viewer's bookmarked statuses, most recently bookmarked first, paged by bookmark id.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type StatusPage, statusesOfEdges } from "./edge-statuses.ts";

export function listBookmarks(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<StatusPage> {
  return statusesOfEdges(ctx, viewerId, page, (p) => ctx.storage.bookmarks.listFrom(viewerId, p));
}
