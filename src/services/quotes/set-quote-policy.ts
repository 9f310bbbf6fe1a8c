// PUT /api/v1/statuses/:id/interaction_policy: the author changes who may quote a status.
// Private and direct statuses stay `nobody`; quotes approved earlier stand (as in Mastodon).
// Not an edit: no history entry and no `update` notifications, but peers get an Update.

import { notFound } from "../../domain/errors.ts";
import { type QuotePolicy, storedQuotePolicy } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";

export async function setQuotePolicy(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
  policy: QuotePolicy | undefined,
): Promise<Status> {
  return ctx.storage.coordination.withLock(`quote-policy:${statusId}`, async () => {
    const status = await ctx.storage.statuses.get(statusId);
    if (!status || status.deleted || status.accountId !== accountId || status.reblogOfId) {
      throw notFound();
    }
    if (policy === undefined) return status;
    const quotePolicy = storedQuotePolicy(status.visibility, policy);
    if (status.quotePolicy === quotePolicy) return status;
    const updated: Status = { ...status, quotePolicy };
    // Peers learn the new policy from the Note sent again (an Update, as Mastodon sends).
    await publishAround(ctx.events, { type: "status.quote_policy_changed", status: updated }, () =>
      ctx.storage.statuses.put(updated),
    );
    return updated;
  });
}
