// Quote posts as Mastodon 4.5 makes them (FEP-044f): a status may quote another; the quoted
// author's policy decides who may, and a quote of a remote status waits for the author's server
// to answer the QuoteRequest with a QuoteAuthorization stamp. Pure rules; the records are the
// quoting status's `quote` and a `quotes` edge per accepted quote (domain/relations.ts).

import type { Edge } from "./relations.ts";
import type { Status } from "./status.ts";
import { escapeHtml } from "./text/html.ts";

/** Who may quote a status (Mastodon's quote_approval_policy). */
export type QuotePolicy = "public" | "followers" | "nobody";

export const QUOTE_POLICIES: readonly QuotePolicy[] = ["public", "followers", "nobody"];

/**
 * Where a quote stands, as stored on the quoting status. `deleted` and `unauthorized` (Mastodon's
 * other states) are worked out when reading: they depend on the quoted status and the viewer.
 */
export type QuoteState = "pending" | "accepted" | "rejected" | "revoked";

/** The quote a status makes. */
export interface StatusQuote {
  /** The quoted status once stored here; null while only its URI is known. */
  quotedStatusId: string | null;
  quotedUri: string;
  state: QuoteState;
  /** The QuoteAuthorization stamp that approves the quote (FEP-044f), once accepted. */
  authorizationUri: string | null;
  /** The QuoteRequest activity that asked for approval (ours or the quoting server's). */
  requestUri: string | null;
}

/**
 * An accepted quote, listed under the quoted status (GET /api/v1/statuses/:id/quotes). Unlike
 * other edges the acting side is a status: `accountId` is the quoting status's id and
 * `targetId` the quoted status's (so one account may quote a status in several posts).
 */
export type QuoteEdge = Edge;

/** How a status's policy applies to one would-be quoter. */
export type QuoteDecision = "automatic" | "denied" | "unknown";

/**
 * The policy in force: private and direct statuses are never quoted by others. A remote status
 * that states no `canQuote` has an unknown policy (null); a local one stored before quotes
 * existed has Mastodon's default for new posts, public.
 */
export function effectiveQuotePolicy(status: Status): QuotePolicy | null {
  if (status.visibility === "private" || status.visibility === "direct") return "nobody";
  if (status.quotePolicy !== undefined) return status.quotePolicy;
  return status.local ? "public" : null;
}

/** May `quoterId` quote the status (Mastodon's StatusPolicy#quote?, automatic approval only)? */
export function quoteDecision(
  status: Status,
  quoterId: string,
  followsAuthor: boolean,
): QuoteDecision {
  if (status.reblogOfId !== null || status.deleted) return "denied";
  // Authors may quote their own posts, the followers-only ones included (not direct messages).
  if (quoterId === status.accountId) return status.visibility === "direct" ? "denied" : "automatic";
  const policy = effectiveQuotePolicy(status);
  if (policy === null) return "unknown";
  if (policy === "public") return "automatic";
  return policy === "followers" && followsAuthor ? "automatic" : "denied";
}

/** The policy asked for at posting, as stored: private and direct posts keep `nobody`. */
export function storedQuotePolicy(
  visibility: Status["visibility"],
  asked: QuotePolicy | undefined,
): QuotePolicy {
  if (visibility === "private" || visibility === "direct") return "nobody";
  return asked ?? "public";
}

/**
 * The post's HTML with Mastodon's fallback link to the quoted post (`RE: <url>` in a
 * `quote-inline` paragraph, which quote-aware clients hide) for servers and apps that know no
 * quotes; unchanged when the text already links it.
 */
export function withQuoteFallback(html: string, quoted: Pick<Status, "url" | "uri">): string {
  const url = quoted.url || quoted.uri;
  if (html.includes(escapeHtml(url)) || html.includes(escapeHtml(quoted.uri))) return html;
  const link = `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
  return `<p class="quote-inline">RE: ${link}</p>${html}`;
}
