// The viewer's favourited statuses, most recently favourited first, paged by favourite id.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type StatusPage, statusesOfEdges } from "./edge-statuses.ts";

export function listFavourites(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<StatusPage> {
  return statusesOfEdges(ctx, viewerId, page, (p) => ctx.storage.favourites.listFrom(viewerId, p));
}
