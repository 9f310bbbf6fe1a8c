// FEP-044f quote posts as Mastodon 4.5 publishes them. Pure. A Note names what it quotes
// (`quote`, plus `quoteUrl`, `_misskey_quote` and `quoteUri` for older readers: Fedify writes
// the three from `quoteUrl`), the stamp that approves it (`quoteAuthorization`, once accepted)
// and who may quote it (`interactionPolicy.canQuote`, automatic approval only, as Mastodon).
// The QuoteRequest, its Accept/Reject and the QuoteAuthorization stamp are Fedify 2.3.6's own
// vocabulary (ADR 0022).

import {
  Accept,
  Delete,
  InteractionPolicy,
  InteractionRule,
  PUBLIC_COLLECTION,
  QuoteAuthorization,
  QuoteRequest,
  Reject,
} from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { effectiveQuotePolicy } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";

const urlOrNull = (value: string | null | undefined): URL | null =>
  value && URL.canParse(value) ? new URL(value) : null;

/** The quote fields of a status's Note (none for a status that quotes nothing). */
export function noteQuoteValues(status: Status, author: Account) {
  const policy = effectiveQuotePolicy(status);
  const approved: URL[] = [];
  if (policy === "public") approved.push(PUBLIC_COLLECTION);
  if (policy === "followers") approved.push(new URL(`${author.uri}/followers`));
  // Nobody but the author: Mastodon names the author so the list is never empty.
  if (approved.length === 0) approved.push(new URL(author.uri));
  const interactionPolicy = new InteractionPolicy({
    canQuote: new InteractionRule({ automaticApprovals: approved }),
  });
  const quote = status.quote;
  const quoted = urlOrNull(quote?.quotedUri);
  if (!quote || !quoted) return { interactionPolicy };
  return {
    interactionPolicy,
    quote: quoted,
    quoteUrl: quoted,
    quoteAuthorization: quote.state === "accepted" ? urlOrNull(quote.authorizationUri) : null,
  };
}

/** The stamp a quoted author's server serves to prove it approved a quote. */
export function toQuoteAuthorization(
  stampUri: string,
  quotedAuthor: Account,
  quoting: Status,
  quoted: Status,
): QuoteAuthorization {
  return new QuoteAuthorization({
    id: new URL(stampUri),
    attribution: new URL(quotedAuthor.uri),
    interactingObject: new URL(quoting.uri),
    interactionTarget: new URL(quoted.uri),
  });
}

/** The request for approval sent to the quoted author (Mastodon's `#quote_requests/<id>`). */
export function quoteRequestId(quoterUri: string, statusId: string): string {
  return `${quoterUri}#quote_requests/${statusId}`;
}

export function toQuoteRequest(quoter: Account, quoting: Status, quotedUri: string): QuoteRequest {
  return new QuoteRequest({
    id: new URL(quoteRequestId(quoter.uri, quoting.id)),
    actor: new URL(quoter.uri),
    object: new URL(quotedUri),
    instrument: new URL(quoting.uri),
  });
}

/** The quoted author's answer to a QuoteRequest: Accept with the stamp as `result`, or Reject. */
export function toQuoteAnswer(
  quotedAuthor: Account,
  request: { id: string; actorUri: string; quotingUri: string; quotedUri: string },
  stampUri: string | null,
): Accept | Reject {
  const object = new QuoteRequest({
    id: new URL(request.id),
    actor: new URL(request.actorUri),
    object: new URL(request.quotedUri),
    instrument: new URL(request.quotingUri),
  });
  const suffix = encodeURIComponent(request.id);
  if (stampUri === null) {
    return new Reject({
      id: new URL(`${quotedAuthor.uri}#rejects/quote_requests/${suffix}`),
      actor: new URL(quotedAuthor.uri),
      to: new URL(request.actorUri),
      object,
    });
  }
  return new Accept({
    id: new URL(`${quotedAuthor.uri}#accepts/quote_requests/${suffix}`),
    actor: new URL(quotedAuthor.uri),
    to: new URL(request.actorUri),
    object,
    result: new URL(stampUri),
  });
}

/** The revoke of an approval: a Delete of the stamp (Mastodon's DeleteQuoteAuthorization). */
export function toStampDelete(quotedAuthor: Account, stampUri: string, to: string): Delete {
  return new Delete({
    id: new URL(`${stampUri}#delete`),
    actor: new URL(quotedAuthor.uri),
    to: new URL(to),
    object: new URL(stampUri),
  });
}
