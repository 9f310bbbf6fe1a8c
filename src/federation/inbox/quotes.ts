// FEP-044f in the inbox. A QuoteRequest asks a local author to approve a remote post that
// quotes theirs: the quoted status's policy answers (Accept with our stamp, or Reject; sent by
// the outbox on quote.accepted / quote.rejected). An Accept or Reject of one of our own
// QuoteRequests settles our pending quote, an Accept only once its stamp checks out; a Delete
// of a stamp revokes the quote it approved. Mastodon's rules: the request's id has the
// sender's origin, the quoted status is local, the quoting post is the sender's.

import type { Activity, QuoteRequest } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { quoteDecision } from "../../domain/quote.ts";
import { quoteRequestId } from "../../serialization/activitypub/quotes.ts";
import {
  answerQuoteRequest,
  settleOwnQuote,
  stampDeleted,
} from "../../services/quotes/answer-quote.ts";
import { localStampUri } from "../../services/quotes/prepare-quote.ts";
import { verifyStamp } from "../quotes/verify-stamp.ts";
import { ingestObject } from "../remote-objects.ts";
import { type InboxCtx, isLocalUri, knownStatusOf, localStatusOf } from "./sender.ts";

const sameOrigin = (a: URL, b: string) => URL.canParse(b) && a.origin === new URL(b).origin;

export async function onQuoteRequest(
  fctx: InboxCtx,
  request: QuoteRequest,
  sender: Account,
): Promise<void> {
  const ctx = fctx.data;
  const instrumentId = request.instrumentId;
  if (!request.id || !sameOrigin(request.id, sender.uri) || !instrumentId) return;
  const quoted = await localStatusOf(ctx, request.objectId);
  if (!quoted || quoted.reblogOfId !== null) return;
  // The quoting post: held already, or fetched from its own origin (Mastodon may embed it; we
  // take it from its server rather than believe the copy).
  const quoting =
    (await knownStatusOf(ctx, instrumentId)) ??
    (sameOrigin(instrumentId, sender.uri)
      ? await ingestObject(fctx, instrumentId, { actor: sender })
      : undefined);
  if (!quoting || quoting.accountId !== sender.id || quoting.quote?.quotedUri !== quoted.uri) {
    return;
  }
  const [author, follow, block] = await Promise.all([
    ctx.storage.accounts.get(quoted.accountId),
    ctx.storage.follows.get(sender.id, quoted.accountId),
    ctx.storage.blocks.get(quoted.accountId, sender.id),
  ]);
  if (!author) return;
  // Blocked accounts are never allowed to quote (Mastodon rejects them automatically).
  const allowed =
    block === undefined && quoteDecision(quoted, sender.id, follow !== undefined) === "automatic";
  const stamp = allowed ? localStampUri(author.uri, quoting.id) : null;
  await answerQuoteRequest(ctx, quoting, quoted, request.id.href, stamp);
}

const OWN_REQUEST = /#quote_requests\/([0-9]{1,20})$/;

/**
 * An Accept or Reject of one of our QuoteRequests; false when the answer is about something
 * else (a follow), for the next handler.
 */
export async function onQuoteAnswer(
  fctx: InboxCtx,
  answer: Activity,
  sender: Account,
  accepted: boolean,
): Promise<boolean> {
  const ctx = fctx.data;
  const id = answer.objectId;
  const match = id && isLocalUri(ctx, id) ? OWN_REQUEST.exec(id.href) : null;
  if (!id || !match?.[1]) return false;
  const quoting = await ctx.storage.statuses.get(match[1]);
  const quotedId = quoting?.quote?.quotedStatusId;
  if (!quoting?.local || quoting.deleted || !quotedId) return true;
  const [poster, quoted] = await Promise.all([
    ctx.storage.accounts.get(quoting.accountId),
    ctx.storage.statuses.get(quotedId),
  ]);
  // Only the quoted author answers, and only the request we sent.
  if (!poster || quoteRequestId(poster.uri, quoting.id) !== id.href) return true;
  if (quoted?.accountId !== sender.id) return true;
  if (!accepted) {
    await settleOwnQuote(ctx, quoting, null);
    return true;
  }
  const stampUri = answer.resultId?.href;
  const verified =
    stampUri !== undefined &&
    (await verifyStamp(fctx, {
      stampUri,
      quotingUri: quoting.uri,
      quotedUri: quoted.uri,
      quotedAuthorUri: sender.uri,
    }));
  if (verified) await settleOwnQuote(ctx, quoting, stampUri);
  return true;
}

/** A Delete of a stamp that approved one of our quotes: the quote is revoked. */
export function onStampDelete(fctx: InboxCtx, objectId: URL, sender: Account): Promise<boolean> {
  return stampDeleted(fctx.data, objectId.href, sender.id);
}
