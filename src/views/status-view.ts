// The read side of statuses: a status with everything a client shows next to it (author,
// boosted original, mentioned accounts, counters, the viewer's own flags), built for many
// statuses at once. Timelines hydrate dozens of statuses per request, so every lookup here is
// made once per batch: each account, application and flag set is fetched a single time.
//
// views/ is Wren's one read layer (ADR 18): hydration of statuses, accounts, notifications and
// conversations into views, and the one visibility entry point (visibility.ts). The client
// API's *-json.ts only serialise views, and the web pages, ActivityPub and streaming build from
// the same views; none of them reads records for display or re-states the visibility rule.
// Timelines pass the statuses their service already resolved (loadResolvedViews), so nothing is
// read twice in a request. What every viewer sees alike (author, counters, attachments, emojis,
// card) is kept between requests while the storage is unchanged (status-shared-parts.ts), and
// so are the viewer's flags of the statuses they read (viewer-flags.ts) and their filters
// (services/filters/viewer-filters.ts); polls, quotes and their approvals are read each time.

import type { Account } from "../domain/account.ts";
import type { CustomEmoji } from "../domain/custom-emoji.ts";
import type { FilterContext } from "../domain/filter.ts";
import type { FilterMatch } from "../domain/filter-match.ts";
import type { MediaAttachment } from "../domain/media.ts";
import type { OAuthApp } from "../domain/oauth.ts";
import type { PreviewCard } from "../domain/preview-card.ts";
import type { Status } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import type { AccountView } from "./account-view.ts";
import { filterStatus, loadViewerFilters } from "./filter-view.ts";
import { loadPollViews, type PollView } from "./poll-view.ts";
import {
  loadQuoteApprovals,
  loadQuoteViews,
  type QuoteApprovalView,
  type QuoteView,
} from "./quote-view.ts";
import { loadSharedParts, type StatusSharedParts } from "./status-shared-parts.ts";
import { loadViewerFlags, type ViewerFlagSets } from "./viewer-flags.ts";

/** What the viewer has done with a status; absent for anonymous viewers. */
export interface StatusViewerFlags {
  favourited: boolean;
  reblogged: boolean;
  bookmarked: boolean;
  /** The viewer muted the status's conversation. */
  muted: boolean;
  /** Only for the author's own pinnable statuses (public, unlisted, private; not reblogs). */
  pinned: boolean | undefined;
}

export interface StatusView {
  status: Status;
  account: AccountView;
  /** The boosted original, for a reblog. */
  reblog: StatusView | null;
  application: Pick<OAuthApp, "name" | "website"> | null;
  /** The mentioned accounts that still exist, in the order of the status's mentionIds. */
  mentions: Account[];
  repliesCount: number;
  reblogsCount: number;
  favouritesCount: number;
  viewer: StatusViewerFlags | null;
  /** The poll attached to the status, if any. */
  poll: PollView | null;
  /** The status's attachments that still exist, in the order of its mediaIds. */
  media: MediaAttachment[];
  /** Custom emojis used in the text and content warning. */
  emojis: CustomEmoji[];
  /** The preview card of the status's first link, once fetched (services/cards/). */
  card: PreviewCard | null;
  /** The viewer's filters that match the status (views/filter-view.ts); empty when anonymous. */
  filtered: FilterMatch[];
  /** The status it quotes, as the viewer may see it (views/quote-view.ts); null for none. */
  quote: QuoteView<StatusView> | null;
  /** Its quote policy and how it applies to the viewer. */
  quoteApproval: QuoteApprovalView;
  /** Its accepted quotes. */
  quotesCount: number;
}

/** What a batch's views need beyond each status's shared parts: the viewer's side. */
interface Batch extends ViewerFlagSets {
  shared: Map<string, StatusSharedParts>;
  polls: Map<string, PollView>;
  quotes: Map<string, QuoteView<StatusView>>;
  approvals: Map<string, QuoteApprovalView>;
}

/** No status of the batch was stored by the request rendering it. */
const NONE_FRESH: ReadonlySet<string> = new Set();

function isPinnable(status: Status): boolean {
  return status.reblogOfId === null && status.visibility !== "direct";
}

/** A status's emojis include its poll options' (Mastodon scans the options with the text). */
function withPollEmojis(own: CustomEmoji[], poll: PollView | undefined): CustomEmoji[] {
  if (!poll || poll.emojis.length === 0) return own;
  const seen = new Set(own.map((e) => e.id));
  return [...own, ...poll.emojis.filter((e) => !seen.has(e.id))];
}

function buildView(
  status: Status,
  batch: Batch,
  viewerId: string | null,
  reblog: StatusView | null,
  filtered: FilterMatch[],
): StatusView | null {
  const shared = batch.shared.get(status.id);
  const account = shared?.account;
  // A suspended author's statuses are hidden with the account (kept, in case it is restored).
  if (!shared || !account || account.account.suspended) return null;
  const poll = status.pollId ? batch.polls.get(status.pollId) : undefined;
  // A boost answers for its original: what the viewer did to the original is what they did to
  // the boost (Mastodon's Account#favourited? etc. read `status.proper`), so a client reading
  // the top level of a boost it just favourited sees it favourited. (A boost's conversation is
  // its original's, so `muted` follows already.)
  const actedOn = status.reblogOfId ?? status.id;
  return {
    status,
    account,
    reblog,
    application: shared.application,
    mentions: shared.mentions,
    repliesCount: shared.repliesCount,
    reblogsCount: shared.reblogsCount,
    favouritesCount: shared.favouritesCount,
    poll: poll ?? null,
    media: shared.media,
    emojis: withPollEmojis(shared.emojis, poll),
    card: shared.card,
    filtered,
    quote: batch.quotes.get(status.id) ?? null,
    quoteApproval: batch.approvals.get(status.id) ?? {
      automatic: [],
      manual: [],
      currentUser: "unknown",
    },
    quotesCount: shared.quotesCount,
    viewer:
      viewerId === null
        ? null
        : {
            favourited: batch.favourited.has(actedOn),
            reblogged: batch.reblogged.has(actedOn),
            bookmarked: batch.bookmarked.has(actedOn),
            muted: batch.mutedConversations.has(status.conversationId),
            pinned:
              viewerId === status.accountId && isPinnable(status)
                ? batch.pinned.has(status.id)
                : undefined,
          },
  };
}

function mediaById(shared: Map<string, StatusSharedParts>): Map<string, MediaAttachment> {
  const out = new Map<string, MediaAttachment>();
  for (const parts of shared.values()) for (const m of parts.media) out.set(m.id, m);
  return out;
}

/** A status with its boosted original already read: null when the status is not a reblog. */
export interface StatusWithOriginal {
  status: Status;
  original: Status | null;
}

/**
 * Views of the statuses, in order. A status whose author has vanished, or a reblog whose
 * original has vanished or is deleted, is left out (there is nothing sound to show).
 * Visibility is the caller's concern: pass only statuses the viewer may see (views/visibility.ts).
 */
export async function loadStatusViews(
  ctx: ServiceContext,
  statuses: readonly Status[],
  viewerId: string | null,
  filterContext?: FilterContext,
  fresh: ReadonlySet<string> = NONE_FRESH,
): Promise<StatusView[]> {
  const originalIds = [
    ...new Set(statuses.flatMap((s) => (s.reblogOfId === null ? [] : [s.reblogOfId]))),
  ];
  const originals =
    originalIds.length > 0 ? await ctx.storage.statuses.getMany(originalIds) : new Map();
  return loadResolvedViews(
    ctx,
    statuses.map((status) => ({
      status,
      original: status.reblogOfId === null ? null : (originals.get(status.reblogOfId) ?? null),
    })),
    viewerId,
    filterContext,
    false,
    fresh,
  );
}

/**
 * loadStatusViews for statuses whose originals are already in hand (a timeline page, resolved
 * by its service while filtering): nothing is read twice. `filterContext` is where the viewer
 * reads (home, notifications, public, thread, account): their filters of that context mark the
 * statuses (`filtered`) and those of a `hide` filter are left out (views/filter-view.ts).
 * `nested`: the statuses are quoted by others in the batch, so their own quotes are shallow
 * (views/quote-view.ts). `fresh`: the ids of statuses the request itself just stored
 * (services/statuses/create-status.ts postStatus), whose counters, card and viewer flags are
 * known without reading: none yet.
 */
export async function loadResolvedViews(
  ctx: ServiceContext,
  items: readonly StatusWithOriginal[],
  viewerId: string | null,
  filterContext?: FilterContext,
  nested = false,
  fresh: ReadonlySet<string> = NONE_FRESH,
): Promise<StatusView[]> {
  const all: Status[] = items.map((i) => i.status);
  for (const { original } of items) if (original && !original.deleted) all.push(original);

  const unique = [...new Map(all.map((s) => [s.id, s])).values()];
  const quoteLoads = Promise.all([
    loadQuoteViews(ctx, unique, viewerId, nested, async (quoted) => {
      const views = await loadResolvedViews(
        ctx,
        quoted.map((status) => ({ status, original: null })),
        viewerId,
        undefined,
        true,
      );
      return new Map(views.map((v) => [v.status.id, v]));
    }),
    loadQuoteApprovals(ctx, unique, viewerId),
  ]);
  const [shared, sets, polls, filters, quoteParts] = await Promise.all([
    loadSharedParts(ctx, unique, fresh),
    viewerId === null ? null : loadViewerFlags(ctx, viewerId, unique, fresh),
    loadPollViews(
      ctx,
      unique.flatMap((s) => (s.pollId ? [s.pollId] : [])),
      viewerId,
    ),
    loadViewerFilters(ctx, viewerId),
    quoteLoads,
  ]);
  const [quotes, approvals] = quoteParts;
  const batch: Batch = {
    shared,
    favourited: sets?.favourited ?? new Set(),
    reblogged: sets?.reblogged ?? new Set(),
    bookmarked: sets?.bookmarked ?? new Set(),
    pinned: sets?.pinned ?? new Set(),
    mutedConversations: sets?.mutedConversations ?? new Set(),
    polls,
    quotes,
    approvals,
  };
  // Filters match attachments' descriptions too; the map is built only for a viewer with filters.
  const filterInputs = {
    media: filters.length === 0 ? new Map<string, MediaAttachment>() : mediaById(shared),
    polls,
  };

  const out: StatusView[] = [];
  for (const { status, original } of items) {
    let reblog: StatusView | null = null;
    if (status.reblogOfId !== null && (!original || original.deleted)) continue;
    // A boost is matched by its original's content, and both carry the result (as Mastodon's).
    const filtered = filterStatus(filters, status, original, filterInputs, filterContext);
    if (filtered === null) continue;
    if (status.reblogOfId !== null && original) {
      reblog = buildView(original, batch, viewerId, null, filtered);
      if (!reblog) continue;
    }
    const view = buildView(status, batch, viewerId, reblog, filtered);
    if (view) out.push(view);
  }
  return out;
}
