// The quote fields of a remote post as an Update restates them: its quote policy, and its quote
// when the federation layer resolved a new state (a stamp it verified). Written without an
// edit (no history entry, no `update` notifications); a quote that became accepted is
// announced like any other (quote.accepted).

import type { StatusQuote } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import type { RemoteStatusDraft } from "../remote/drafts.ts";

const sameQuote = (a: StatusQuote | null | undefined, b: StatusQuote | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The status with the update's quote fields, stored when they changed. */
export async function applyRemoteQuoteFields(
  ctx: ServiceContext,
  status: Status,
  draft: RemoteStatusDraft,
  quote: StatusQuote | null | undefined,
): Promise<Status> {
  const nextQuote = quote === undefined ? status.quote : quote;
  if (status.quotePolicy === draft.quotePolicy && sameQuote(status.quote, nextQuote)) {
    return status;
  }
  const updated: Status = { ...status, quotePolicy: draft.quotePolicy, quote: nextQuote ?? null };
  const save = () => ctx.storage.statuses.put(updated);
  if (nextQuote?.state === "accepted" && status.quote?.state !== "accepted") {
    await publishAround(ctx.events, { type: "quote.accepted", status: updated }, save);
  } else {
    await save();
  }
  return updated;
}
