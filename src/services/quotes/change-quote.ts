// Moving a stored quote to a new state (accepted, rejected, revoked), with the event that the
// listeners (quotes-listener.ts) and the outbox react to. One writer per quoting status at a
// time, so an Accept racing a revoke leaves one answer, not a mix.

import type { QuoteState, StatusQuote } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";

/**
 * Sets the quote of `statusId` to `state` (with `changes`), unless it has none or is already
 * there; answers the stored status either way (undefined when missing).
 */
export async function changeQuote(
  ctx: ServiceContext,
  statusId: string,
  state: QuoteState,
  changes: Partial<Pick<StatusQuote, "authorizationUri" | "requestUri" | "quotedStatusId">> = {},
): Promise<Status | undefined> {
  return ctx.storage.coordination.withLock(`quote:${statusId}`, async () => {
    const status = await ctx.storage.statuses.get(statusId);
    if (!status?.quote || status.deleted) return status;
    if (status.quote.state === state) return status;
    const updated: Status = { ...status, quote: { ...status.quote, ...changes, state } };
    const save = () => ctx.storage.statuses.put(updated);
    const type = `quote.${state}` as const;
    if (type === "quote.pending") await save();
    else await publishAround(ctx.events, { type, status: updated }, save);
    return updated;
  });
}
