// The quote a remote post makes, as we store it: the quoted post found here (or fetched, within
// the ingest's budget), and its state. A quote of a remote post is accepted once its stamp
// checks out (verify-stamp.ts); a quote of a local post stays pending until its author's policy
// answers the QuoteRequest (inbox/quotes.ts); an author quoting themselves needs no stamp. A
// post we already hold keeps the state it reached (a restated Note changes nothing).

import type { StatusQuote } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { RemoteStatusDraft } from "../../services/remote/drafts.ts";
import type { FederationContext } from "../remote-actors.ts";
import { verifyStamp } from "./verify-stamp.ts";

export async function resolveQuote(
  fctx: FederationContext,
  draft: RemoteStatusDraft,
  authorId: string,
  existing: Status | undefined,
  fetchQuoted: (uri: string) => Promise<Status | undefined>,
): Promise<StatusQuote | null> {
  const wanted = draft.quote;
  if (!wanted) return null;
  const prior = existing?.quote;
  const known = prior && prior.quotedUri === wanted.uri ? prior : undefined;
  // Settled, or nothing new to check.
  if (known && (known.state !== "pending" || wanted.authorizationUri === null)) return known;
  const quoted =
    (await fctx.data.storage.statuses.findByUri(wanted.uri)) ?? (await fetchQuoted(wanted.uri));
  const quote: StatusQuote = {
    quotedStatusId: quoted?.id ?? null,
    quotedUri: wanted.uri,
    state: "pending",
    authorizationUri: null,
    requestUri: known?.requestUri ?? null,
  };
  if (!quoted || quoted.deleted) return quote;
  if (quoted.accountId === authorId) return { ...quote, state: "accepted" };
  if (quoted.local || wanted.authorizationUri === null) return quote;
  const author = await fctx.data.storage.accounts.get(quoted.accountId);
  const approved =
    author !== undefined &&
    (await verifyStamp(fctx, {
      stampUri: wanted.authorizationUri,
      quotingUri: draft.uri,
      quotedUri: quoted.uri,
      quotedAuthorUri: author.uri,
    }));
  return approved
    ? { ...quote, state: "accepted", authorizationUri: wanted.authorizationUri }
    : quote;
}
