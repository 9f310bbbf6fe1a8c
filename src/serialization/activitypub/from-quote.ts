// What a remote post says about quotes (FEP-044f): the post it quotes, with the stamp that
// approves the quote, and who may quote it. Pure: the stamp is checked elsewhere
// (federation/quotes/verify-stamp.ts), since only its own server can vouch for it.

import { type Object as APObject, PUBLIC_COLLECTION } from "@fedify/vocab";
import type { QuotePolicy } from "../../domain/quote.ts";
import type { RemoteQuoteDraft } from "../../services/remote/drafts.ts";

const httpHref = (url: URL | null | undefined): string | null =>
  url && (url.protocol === "https:" || url.protocol === "http:") ? url.href : null;

/** `quote` (FEP-044f), else `quoteUrl`, `_misskey_quote` or `quoteUri` (Fedify reads all three). */
export function quoteOf(object: APObject): RemoteQuoteDraft | null {
  const quoteId = "quoteId" in object ? (object.quoteId as URL | null) : null;
  const quoteUrl = "quoteUrl" in object ? (object.quoteUrl as URL | null) : null;
  const uri = httpHref(quoteId) ?? httpHref(quoteUrl);
  if (uri === null) return null;
  const stamp =
    "quoteAuthorizationId" in object ? (object.quoteAuthorizationId as URL | null) : null;
  return { uri, authorizationUri: httpHref(stamp) };
}

/**
 * `interactionPolicy.canQuote.automaticApproval`: the public collection → public, the author's
 * followers → followers, anything else stated (the author alone) → nobody; no rule → unknown.
 */
export function quotePolicyOf(
  object: APObject,
  authorUri: string | null,
  followersUri: string | null,
): QuotePolicy | null {
  const rule = object.interactionPolicy?.canQuote;
  if (!rule) return null;
  const approved = rule.automaticApprovals.map((u) => u.href);
  if (approved.includes(PUBLIC_COLLECTION.href) || approved.includes("as:Public")) return "public";
  const followers = followersUri ?? (authorUri ? `${authorUri}/followers` : null);
  if (followers !== null && approved.includes(followers)) return "followers";
  return "nobody";
}
