// The quote a new status makes (Mastodon's PostStatusService#process_quote!): the quoted status
// must be visible to the poster and its policy must not refuse them. A local quoted status
// approves at once (its stamp is ours); a remote one leaves the quote pending until its
// server answers the QuoteRequest (federation/outbox/quotes.ts).

import type { StatusQuote } from "../../domain/quote.ts";
import { quoteDecision } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { blocksAuthor, notAllowed, originalOf } from "../interactions/target.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";

/** The stamp that approves a quote of a local status: served by federation/quote-stamps.ts. */
export function localStampUri(quotedAuthorUri: string, quotingStatusId: string): string {
  return `${quotedAuthorUri}/quote_authorizations/${quotingStatusId}`;
}

export interface PreparedQuote {
  quoted: Status;
  /** The quote to store on the new status; `authorizationUri` is filled by stampFor. */
  quote: StatusQuote;
}

export async function prepareQuote(
  ctx: ServiceContext,
  quoterId: string,
  quotedStatusId: string,
): Promise<PreparedQuote> {
  const quoted = await originalOf(ctx, await loadVisibleStatus(ctx, quoterId, quotedStatusId));
  if (await blocksAuthor(ctx, quoterId, quoted.accountId)) throw notAllowed();
  const follows = (await ctx.storage.follows.get(quoterId, quoted.accountId)) !== undefined;
  if (quoteDecision(quoted, quoterId, follows) === "denied") throw notAllowed();
  return {
    quoted,
    quote: {
      quotedStatusId: quoted.id,
      quotedUri: quoted.uri,
      state: quoted.local ? "accepted" : "pending",
      authorizationUri: null,
      requestUri: null,
    },
  };
}

/** The quote as stored on the status `statusId`: a local approval names its stamp. */
export async function stampFor(
  ctx: ServiceContext,
  prepared: PreparedQuote,
  statusId: string,
): Promise<StatusQuote> {
  if (prepared.quote.state !== "accepted") return prepared.quote;
  const author = await ctx.storage.accounts.get(prepared.quoted.accountId);
  return {
    ...prepared.quote,
    authorizationUri: author ? localStampUri(author.uri, statusId) : null,
  };
}
