// The quote a status makes and its quote policy, as one viewer sees them (Mastodon's Quote,
// ShallowQuote and QuoteApproval entities), built for a batch of statuses. The quoted status is
// hydrated through the same loadResolvedViews as any other status, one level deep (the quoted
// status's own quote is shallow, as in Mastodon), and only when the viewer may see it: a quote
// of a status hidden from the viewer answers a state, never the content.

import {
  effectiveQuotePolicy,
  type QuoteDecision,
  type QuotePolicy,
  quoteDecision,
} from "../domain/quote.ts";
import type { Status } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import { visibleStatuses } from "../services/statuses/visibility.ts";

/** Mastodon's quote states; those past `revoked` depend on the quoted status and the viewer. */
export type QuoteViewState =
  | "pending"
  | "accepted"
  | "rejected"
  | "revoked"
  | "deleted"
  | "unauthorized"
  | "blocked_account"
  | "muted_account";

export interface QuoteView<V> {
  state: QuoteViewState;
  /** The quoted status's view, when it may be shown; never for a shallow quote. */
  quoted: V | null;
  /** The quoted status's id, shown when the quote stands (accepted, blocked or muted). */
  quotedStatusId: string | null;
  /** A quote inside a quoted status: only its state and id (Mastodon's ShallowQuote). */
  shallow: boolean;
}

export interface QuoteApprovalView {
  automatic: QuotePolicy[];
  manual: QuotePolicy[];
  currentUser: QuoteDecision | "manual";
}

const SHOWN: ReadonlySet<QuoteViewState> = new Set([
  "accepted",
  "blocked_account",
  "muted_account",
]);

/** Hydrates the given quoted statuses for the viewer (loadResolvedViews, nested). */
export type LoadNested<V> = (statuses: Status[]) => Promise<Map<string, V>>;

/** The quote views of the statuses that quote, by quoting status id. */
export async function loadQuoteViews<V>(
  ctx: ServiceContext,
  statuses: readonly Status[],
  viewerId: string | null,
  shallow: boolean,
  loadNested: LoadNested<V>,
): Promise<Map<string, QuoteView<V>>> {
  const quoting = statuses.filter((s) => s.quote);
  const out = new Map<string, QuoteView<V>>();
  if (quoting.length === 0) return out;
  const ids = [
    ...new Set(
      quoting.flatMap((s) =>
        s.quote?.state === "accepted" && s.quote.quotedStatusId ? [s.quote.quotedStatusId] : [],
      ),
    ),
  ];
  const quoted = ids.length > 0 ? await ctx.storage.statuses.getMany(ids) : new Map();
  const live = [...quoted.values()].filter((s: Status) => !s.deleted);
  const [visible, relations] = await Promise.all([
    visibleStatuses(ctx, viewerId, live),
    viewerRelations(ctx, viewerId, live),
  ]);
  const views = shallow || visible.length === 0 ? new Map<string, V>() : await loadNested(visible);
  const visibleIds = new Set(visible.map((s) => s.id));
  for (const status of quoting) {
    const quote = status.quote;
    if (!quote) continue;
    let state: QuoteViewState = quote.state;
    const target = quote.quotedStatusId ? quoted.get(quote.quotedStatusId) : undefined;
    if (state === "accepted") {
      if (!target || target.deleted) state = "deleted";
      else if (!visibleIds.has(target.id)) state = "unauthorized";
      else if (relations.blocked.has(target.accountId)) state = "blocked_account";
      else if (relations.muted.has(target.accountId)) state = "muted_account";
      else if (!shallow && !views.has(target.id)) state = "unauthorized";
    }
    const shown = SHOWN.has(state) && target !== undefined;
    out.set(status.id, {
      state,
      quoted: shown && !shallow ? (views.get(target.id) ?? null) : null,
      quotedStatusId: shown ? target.id : null,
      shallow,
    });
  }
  return out;
}

/** The viewer's blocks and mutes of the quoted authors (their quotes show a state first). */
async function viewerRelations(
  ctx: ServiceContext,
  viewerId: string | null,
  quoted: readonly Status[],
): Promise<{ blocked: Set<string>; muted: Set<string> }> {
  if (viewerId === null || quoted.length === 0) return { blocked: new Set(), muted: new Set() };
  const ids = [...new Set(quoted.map((s) => s.accountId))];
  const [blocks, mutes] = await ctx.storage.joined.edges(viewerId, [
    { kind: "blocks", direction: "from", ids },
    { kind: "mutes", direction: "from", ids },
  ]);
  return { blocked: new Set(blocks.keys()), muted: new Set(mutes.keys()) };
}

/** QuoteApproval of each status for the viewer, by status id. */
export async function loadQuoteApprovals(
  ctx: ServiceContext,
  statuses: readonly Status[],
  viewerId: string | null,
): Promise<Map<string, QuoteApprovalView>> {
  const followersOnly = statuses.filter((s) => effectiveQuotePolicy(s) === "followers");
  const following =
    viewerId !== null && followersOnly.length > 0
      ? (
          await ctx.storage.joined.edges(viewerId, [
            { kind: "follows", direction: "from", ids: followersOnly.map((s) => s.accountId) },
          ])
        )[0]
      : new Map();
  const out = new Map<string, QuoteApprovalView>();
  for (const status of statuses) {
    const policy = effectiveQuotePolicy(status);
    out.set(status.id, {
      automatic: policy === null || policy === "nobody" ? [] : [policy],
      manual: [],
      currentUser:
        viewerId === null
          ? "unknown"
          : quoteDecision(status, viewerId, following.has(status.accountId)),
    });
  }
  return out;
}
