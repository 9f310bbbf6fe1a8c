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
// read twice in a request.

import type { Account } from "../domain/account.ts";
import type { CustomEmoji } from "../domain/custom-emoji.ts";
import type { FilterContext } from "../domain/filter.ts";
import type { FilterMatch } from "../domain/filter-match.ts";
import type { MediaAttachment } from "../domain/media.ts";
import type { OAuthApp } from "../domain/oauth.ts";
import type { PreviewCard } from "../domain/preview-card.ts";
import type { Status } from "../domain/status.ts";
import { loadStatusCards } from "../services/cards/card-records.ts";
import type { ServiceContext } from "../services/context.ts";
import type { StatusCounts } from "../storage/ports.ts";
import { type AccountView, loadAccountViews } from "./account-view.ts";
import { resolveEmojis } from "./custom-emojis.ts";
import { filterStatus, loadViewerFilters } from "./filter-view.ts";
import { loadPollViews, type PollView } from "./poll-view.ts";
import {
  loadQuoteApprovals,
  loadQuoteViews,
  type QuoteApprovalView,
  type QuoteView,
} from "./quote-view.ts";

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

interface Batch {
  accounts: Map<string, AccountView>;
  apps: Map<string, OAuthApp>;
  counts: Map<string, StatusCounts>;
  favourited: Set<string>;
  reblogged: Set<string>;
  bookmarked: Set<string>;
  pinned: Set<string>;
  mutedConversations: Set<string>;
  polls: Map<string, PollView>;
  media: Map<string, MediaAttachment>;
  emojis: Map<string, CustomEmoji[]>;
  cards: Map<string, PreviewCard>;
  quotes: Map<string, QuoteView<StatusView>>;
  approvals: Map<string, QuoteApprovalView>;
}

async function viewerSets(
  ctx: ServiceContext,
  viewerId: string,
  statuses: readonly Status[],
): Promise<
  Pick<Batch, "favourited" | "reblogged" | "bookmarked" | "pinned" | "mutedConversations">
> {
  const { storage } = ctx;
  const ids = statuses.map((s) => s.id);
  const conversations = [...new Set(statuses.map((s) => s.conversationId))];
  const [[favourites, bookmarks, pins, mutes], reblogs] = await Promise.all([
    storage.joined.edges(viewerId, [
      { kind: "favourites", direction: "from", ids },
      { kind: "bookmarks", direction: "from", ids },
      { kind: "pins", direction: "from", ids },
      { kind: "conversationMutes", direction: "from", ids: conversations },
    ]),
    storage.statuses.findReblogs(viewerId, ids),
  ]);
  return {
    favourited: new Set(favourites.keys()),
    bookmarked: new Set(bookmarks.keys()),
    pinned: new Set(pins.keys()),
    mutedConversations: new Set(mutes.keys()),
    reblogged: new Set(reblogs.keys()),
  };
}

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
  mentioned: Map<string, Account>,
  reblog: StatusView | null,
  filtered: FilterMatch[],
): StatusView | null {
  const account = batch.accounts.get(status.accountId);
  // A suspended author's statuses are hidden with the account (kept, in case it is restored).
  if (!account || account.account.suspended) return null;
  const counts = batch.counts.get(status.id);
  const app = status.applicationId ? batch.apps.get(status.applicationId) : undefined;
  return {
    status,
    account,
    reblog,
    application: app ? { name: app.name, website: app.website } : null,
    mentions: status.mentionIds.flatMap((id) => {
      const a = mentioned.get(id);
      return a ? [a] : [];
    }),
    repliesCount: counts?.replies ?? 0,
    reblogsCount: counts?.reblogs ?? 0,
    favouritesCount: counts?.favourites ?? 0,
    poll: status.pollId ? (batch.polls.get(status.pollId) ?? null) : null,
    media: status.mediaIds.flatMap((id) => {
      const m = batch.media.get(id);
      return m ? [m] : [];
    }),
    emojis: withPollEmojis(
      batch.emojis.get(status.id) ?? [],
      status.pollId ? batch.polls.get(status.pollId) : undefined,
    ),
    card: batch.cards.get(status.id) ?? null,
    filtered,
    quote: batch.quotes.get(status.id) ?? null,
    quoteApproval: batch.approvals.get(status.id) ?? {
      automatic: [],
      manual: [],
      currentUser: "unknown",
    },
    quotesCount: counts?.quotes ?? 0,
    viewer:
      viewerId === null
        ? null
        : {
            favourited: batch.favourited.has(status.id),
            reblogged: batch.reblogged.has(status.id),
            bookmarked: batch.bookmarked.has(status.id),
            muted: batch.mutedConversations.has(status.conversationId),
            pinned:
              viewerId === status.accountId && isPinnable(status)
                ? batch.pinned.has(status.id)
                : undefined,
          },
  };
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
  );
}

/**
 * loadStatusViews for statuses whose originals are already in hand (a timeline page, resolved
 * by its service while filtering): nothing is read twice. `filterContext` is where the viewer
 * reads (home, notifications, public, thread, account): their filters of that context mark the
 * statuses (`filtered`) and those of a `hide` filter are left out (views/filter-view.ts).
 * `nested`: the statuses are quoted by others in the batch, so their own quotes are shallow
 * (views/quote-view.ts).
 */
export async function loadResolvedViews(
  ctx: ServiceContext,
  items: readonly StatusWithOriginal[],
  viewerId: string | null,
  filterContext?: FilterContext,
  nested = false,
): Promise<StatusView[]> {
  const { storage } = ctx;
  const all: Status[] = items.map((i) => i.status);
  for (const { original } of items) if (original && !original.deleted) all.push(original);

  const unique = [...new Map(all.map((s) => [s.id, s])).values()];
  const accountIds = [...new Set(unique.flatMap((s) => [s.accountId, ...s.mentionIds]))];
  const appIds = [...new Set(unique.flatMap((s) => (s.applicationId ? [s.applicationId] : [])))];
  // Counters belong to originals; a reblog wrapper shows zeros as in Mastodon.
  const counted = unique.filter((s) => s.reblogOfId === null).map((s) => s.id);

  const mediaIds = [...new Set(unique.flatMap((s) => s.mediaIds))];
  // Only statuses with a link and no attachments can have a card (services/cards/fetch-card.ts).
  const linking = unique
    .filter(
      (s) => s.reblogOfId === null && s.mediaIds.length === 0 && s.contentHtml.includes("href="),
    )
    .map((s) => s.id);
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
  const [accounts, apps, counts, sets, polls, media, filters, cards, quoteParts] =
    await Promise.all([
      storage.accounts.getMany(accountIds),
      appIds.length > 0 ? storage.apps.getMany(appIds) : new Map<string, OAuthApp>(),
      counted.length > 0 ? storage.joined.statusCounts(counted) : new Map<string, StatusCounts>(),
      viewerId === null ? null : viewerSets(ctx, viewerId, unique),
      loadPollViews(
        ctx,
        unique.flatMap((s) => (s.pollId ? [s.pollId] : [])),
        viewerId,
      ),
      mediaIds.length > 0 ? storage.media.getMany(mediaIds) : new Map<string, MediaAttachment>(),
      loadViewerFilters(ctx, viewerId),
      linking.length > 0 ? loadStatusCards(ctx, linking) : new Map<string, PreviewCard>(),
      quoteLoads,
    ]);
  const [quotes, approvals] = quoteParts;
  const authorIds = new Set(unique.map((s) => s.accountId));
  const authors = [...accounts.values()].filter((a) => authorIds.has(a.id));
  // Emojis belong to the author's server: local ones for local statuses.
  const emojiSources = unique.map((s) => ({
    domain: accounts.get(s.accountId)?.domain ?? null,
    texts: [s.spoilerText, s.local ? s.text : s.contentHtml],
  }));
  const [views, emojiLists] = await Promise.all([
    loadAccountViews(ctx, authors),
    resolveEmojis(ctx, emojiSources),
  ]);
  const batch: Batch = {
    accounts: new Map(views.map((v) => [v.account.id, v])),
    apps,
    counts,
    favourited: sets?.favourited ?? new Set(),
    reblogged: sets?.reblogged ?? new Set(),
    bookmarked: sets?.bookmarked ?? new Set(),
    pinned: sets?.pinned ?? new Set(),
    mutedConversations: sets?.mutedConversations ?? new Set(),
    polls,
    media,
    emojis: new Map(unique.map((s, i) => [s.id, emojiLists[i] ?? []])),
    cards,
    quotes,
    approvals,
  };

  const out: StatusView[] = [];
  for (const { status, original } of items) {
    let reblog: StatusView | null = null;
    if (status.reblogOfId !== null && (!original || original.deleted)) continue;
    // A boost is matched by its original's content, and both carry the result (as Mastodon's).
    const filtered = filterStatus(filters, status, original, batch, filterContext);
    if (filtered === null) continue;
    if (status.reblogOfId !== null && original) {
      reblog = buildView(original, batch, viewerId, accounts, null, filtered);
      if (!reblog) continue;
    }
    const view = buildView(status, batch, viewerId, accounts, reblog, filtered);
    if (view) out.push(view);
  }
  return out;
}
