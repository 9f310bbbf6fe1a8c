// Reactions to quotes: an accepted quote is listed under the quoted status (the `quotes` edge,
// which GET /api/v1/statuses/:id/quotes and quotes_count read) and its author is notified
// (`quote`); a revoked quote, or a deleted quoting status, leaves the list. Idempotent: the edge
// is one per pair and notify never makes the same notification twice.

import type { DomainEvent } from "../../domain/events.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { notify } from "../notifications/notify.ts";
import { walkPages } from "../paging.ts";

async function onAccepted(ctx: ServiceContext, status: Status): Promise<void> {
  const quotedId = status.quote?.quotedStatusId;
  if (status.quote?.state !== "accepted" || !quotedId) return;
  const quoted = await ctx.storage.statuses.get(quotedId);
  if (!quoted || quoted.deleted) return;
  if (!(await ctx.storage.quotes.get(status.id, quoted.id))) {
    await ctx.storage.quotes.put({
      id: ctx.ids.next(),
      accountId: status.id,
      targetId: quoted.id,
      createdAt: ctx.clock.now().toISOString(),
    });
  }
  await notify(ctx, {
    recipientId: quoted.accountId,
    type: "quote",
    fromAccountId: status.accountId,
    status,
  });
}

/** Those whose accepted quotes show the edited status hear of the edit (Mastodon 4.5). */
async function onQuotedEdited(ctx: ServiceContext, status: Status): Promise<void> {
  for await (const quote of walkPages((page) => ctx.storage.quotes.listTo(status.id, page))) {
    const quoting = await ctx.storage.statuses.get(quote.accountId);
    if (!quoting || quoting.deleted || quoting.quote?.state !== "accepted") continue;
    await notify(ctx, {
      recipientId: quoting.accountId,
      type: "quoted_update",
      fromAccountId: status.accountId,
      status: quoting,
    });
  }
}

async function onGone(ctx: ServiceContext, status: Status): Promise<void> {
  const quotedId = status.quote?.quotedStatusId;
  if (quotedId) await ctx.storage.quotes.delete(status.id, quotedId);
}

export function quoteListener(ctx: ServiceContext): EventListener {
  return async (event: DomainEvent) => {
    switch (event.type) {
      case "status.created":
      case "quote.accepted":
        return onAccepted(ctx, event.status);
      case "status.updated":
        return onQuotedEdited(ctx, event.status);
      case "quote.revoked":
      case "status.deleted":
        return onGone(ctx, event.status);
    }
  };
}
