// The quote a new status makes (Mastodon's PostStatusService#process_quote!): the quoted status
// must be visible to the poster and its policy must not refuse them. A local quoted status
// approves at once (its stamp is ours); a remote one leaves the quote pending until its
// server answers the QuoteRequest (federation/outbox/quotes.ts).

import type { Visibility } from "../../domain/account.ts";
import { AppError } from "../../domain/errors.ts";
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

/**
 * What the new post itself must be to carry the quote (Mastodon 4.5): no poll or attachments
 * beside it, a followers-only post quoted only in a followers-only or direct one, and a private
 * mention quoting someone only if it mentions them.
 */
export function checkQuotingPost(
  prepared: PreparedQuote,
  post: {
    visibility: Visibility;
    mentionIds: readonly string[];
    hasMedia: boolean;
    hasPoll: boolean;
  },
): void {
  if (post.hasMedia || post.hasPoll) {
    throw new AppError(422, "Validation failed: Quote posts cannot have a poll or attachments");
  }
  const { quoted } = prepared;
  if (
    quoted.visibility === "private" &&
    (post.visibility === "public" || post.visibility === "unlisted")
  ) {
    throw new AppError(422, "Validation failed: Private posts can only be quoted in private posts");
  }
  if (post.visibility === "direct" && !post.mentionIds.includes(quoted.accountId)) {
    throw new AppError(
      422,
      "Validation failed: A private mention can only quote the posts of those it mentions",
    );
  }
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
