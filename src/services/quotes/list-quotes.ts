// GET /api/v1/statuses/:id/quotes: the accepted quotes of one's own status, newest accepted
// first, paged by the quote's id, leaving out quoting statuses the viewer may not see.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type StatusPage, statusesOfEdges } from "../interactions/edge-statuses.ts";
import { notAllowed } from "../interactions/target.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";

export async function listQuotes(
  ctx: ServiceContext,
  viewerId: string,
  statusId: string,
  page: IdPage,
): Promise<StatusPage> {
  const status = await loadVisibleStatus(ctx, viewerId, statusId);
  if (status.accountId !== viewerId) throw notAllowed();
  return statusesOfEdges(
    ctx,
    viewerId,
    page,
    (p) => ctx.storage.quotes.listTo(status.id, p),
    (quote) => quote.accountId,
  );
}
