// POST /api/v1/statuses/:id/quotes/:quoting_status_id/revoke (Mastodon's RevokeQuoteService):
// the quoted author withdraws the approval of one quote of their status. The quoting status
// then shows `revoked`; a remote one's server hears a Delete of our stamp (federation outbox).

import { notFound } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { notAllowed } from "../interactions/target.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { changeQuote } from "./change-quote.ts";

/** Answers the quoting status, as it stands after the revoke. */
export async function revokeQuote(
  ctx: ServiceContext,
  accountId: string,
  quotedStatusId: string,
  quotingStatusId: string,
): Promise<Status> {
  const quoted = await loadVisibleStatus(ctx, accountId, quotedStatusId);
  const quoting = await ctx.storage.statuses.get(quotingStatusId);
  if (!quoting || quoting.deleted || quoting.quote?.quotedStatusId !== quoted.id) {
    throw notFound();
  }
  if (quoted.accountId !== accountId) throw notAllowed();
  if (quoting.quote.state !== "accepted" && quoting.quote.state !== "pending") return quoting;
  return (await changeQuote(ctx, quoting.id, "revoked")) ?? quoting;
}
