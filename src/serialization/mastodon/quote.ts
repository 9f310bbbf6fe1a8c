// A status's quote (Mastodon's Quote, or ShallowQuote inside a quoted status) and its
// QuoteApproval. Pure. The quoted status itself is serialised by the caller's status
// serializer, so the object and text renderings (status.ts, status-text.ts) share this file.

import type { QuoteApprovalView, QuoteView } from "../../views/quote-view.ts";

export interface QuoteApprovalJson {
  automatic: string[];
  manual: string[];
  current_user: string;
}

export type QuoteJson<S> =
  | { state: string; quoted_status: S | null }
  | { state: string; quoted_status_id: string | null };

export function serializeQuote<V, S>(
  quote: QuoteView<V> | null,
  serializeQuoted: (view: V) => S,
): QuoteJson<S> | null {
  if (!quote) return null;
  if (quote.shallow) return { state: quote.state, quoted_status_id: quote.quotedStatusId };
  return { state: quote.state, quoted_status: quote.quoted ? serializeQuoted(quote.quoted) : null };
}

export function serializeQuoteApproval(approval: QuoteApprovalView): QuoteApprovalJson {
  return {
    automatic: [...approval.automatic],
    manual: [...approval.manual],
    current_user: approval.currentUser,
  };
}
