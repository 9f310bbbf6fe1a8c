// The QuoteAuthorization stamps of local authors, at
// `/users/{username}/quote_authorizations/{quoting status id}` (Mastodon's path): proof, for
// any server showing a quote, that the quoted author approved it. A stamp answers only while
// the quote stands (accepted, neither side deleted) and only to a reader who may see the
// quoting post, as Mastodon's QuoteAuthorizationsController does; else 404.

import type { Federation } from "@fedify/fedify";
import { QuoteAuthorization } from "@fedify/vocab";
import { toQuoteAuthorization } from "../../serialization/activitypub/quotes.ts";
import type { ServiceContext } from "../../services/context.ts";
import { localStampUri } from "../../services/quotes/prepare-quote.ts";
import { visibleToReader } from "../../views/visibility.ts";
import { signedViewer } from "../signed-viewer.ts";

export const STAMP_PATH = "/users/{identifier}/quote_authorizations/{id}";

const ID = /^[0-9]{1,20}$/;

export function registerQuoteStamps(federation: Federation<ServiceContext>): void {
  federation.setObjectDispatcher(QuoteAuthorization, STAMP_PATH, async (fctx, values) => {
    const ctx = fctx.data;
    if (!ID.test(values.id)) return null;
    const [author, quoting] = await Promise.all([
      ctx.storage.accounts.findByUsername(values.identifier, null),
      ctx.storage.statuses.get(values.id),
    ]);
    const quote = quoting?.quote;
    if (!author || !quoting || quoting.deleted || quote?.state !== "accepted") return null;
    if (!quote.quotedStatusId) return null;
    const quoted = await ctx.storage.statuses.get(quote.quotedStatusId);
    if (!quoted || quoted.deleted || quoted.accountId !== author.id) return null;
    const stampUri = localStampUri(author.uri, quoting.id);
    if (quote.authorizationUri !== stampUri) return null;
    const readable = await visibleToReader(
      ctx,
      quoting,
      async () => (await signedViewer(fctx))?.id ?? null,
    );
    return readable ? toQuoteAuthorization(stampUri, author, quoting, quoted) : null;
  });
}
