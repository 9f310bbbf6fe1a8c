// The part of a status's view that is the same for every viewer: its author's account view,
// application, mentioned accounts, counters, attachments, custom emojis and preview card. It is
// most of a timeline's hydration (about fifteen store reads per status, and the authors' counts),
// and it is kept between requests, keyed by the versions of the kinds of records it reads
// (Storage.versionOf, ADR 0072): every change of those kinds moves them (in every process sharing
// a database), so parts loaded while they held their values are exact as long as they hold them;
// a write of another kind (a marker, a notification, a token's use) keeps them, and a favourite
// only has the counters read again (COUNT_KINDS). A kept entry also remembers the very Status
// record it was built for (records are replaced, never changed in place), so a re-read record is
// never paired with parts of another. Between writes a page then costs only what depends on the
// viewer (flags, polls, filters, quotes); under a stream of statuses entries are rebuilt as before.

import type { Account } from "../domain/account.ts";
import type { CustomEmoji } from "../domain/custom-emoji.ts";
import { LruCache } from "../domain/lru-cache.ts";
import type { MediaAttachment } from "../domain/media.ts";
import type { OAuthApp } from "../domain/oauth.ts";
import { perOwner } from "../domain/per-owner.ts";
import type { PreviewCard } from "../domain/preview-card.ts";
import type { Status } from "../domain/status.ts";
import { loadStatusCards } from "../services/cards/card-records.ts";
import type { ServiceContext } from "../services/context.ts";
import type { StatusCounts, Storage } from "../storage/ports.ts";
import { CONTENT_KINDS, type VersionKind } from "../storage/version-kinds.ts";
import { type AccountView, loadAccountViews } from "./account-view.ts";
import { resolveEmojis } from "./custom-emojis.ts";

export interface StatusSharedParts {
  /** The author's view; undefined when the author has vanished. */
  account: AccountView | undefined;
  application: Pick<OAuthApp, "name" | "website"> | null;
  /** The mentioned accounts that still exist, in the order of the status's mentionIds. */
  mentions: Account[];
  repliesCount: number;
  reblogsCount: number;
  favouritesCount: number;
  quotesCount: number;
  /** The status's attachments that still exist, in the order of its mediaIds. */
  media: MediaAttachment[];
  /** Custom emojis of the text and content warning (not the poll's: polls are per viewer). */
  emojis: CustomEmoji[];
  card: PreviewCard | null;
}

interface Kept {
  status: Status;
  /** versionOf(REST_KINDS) and versionOf(COUNT_KINDS) when the parts were read. */
  rest: number;
  counts: number;
  parts: StatusSharedParts;
}

/** A few pages of every active timeline; the parts share their objects with other entries. */
const KEPT_LIMIT = 20_000;

/**
 * What the counters read: replies, boosts and quotes are statuses, favourites acts. A favourite
 * (the commonest write of a busy server) then re-reads a page's counters, one batch, not its
 * authors, media and cards.
 */
const COUNT_KINDS: readonly VersionKind[] = ["statuses", "acts"];
/**
 * What the rest reads: the status's author, mentions, application and emojis (accounts), the
 * authors' counts (statuses, and follows: relations), media, and cards (kv). Every content kind
 * but acts.
 */
const REST_KINDS: readonly VersionKind[] = CONTENT_KINDS.filter((k) => k !== "acts");

const keptFor = perOwner<Storage, LruCache<string, Kept>>(() => new LruCache(KEPT_LIMIT));

/** The counters of originals that are not fresh (a reblog wrapper shows zeros, as in Mastodon). */
const countedIds = (statuses: readonly Status[], fresh: ReadonlySet<string>) =>
  statuses.filter((s) => s.reblogOfId === null && !fresh.has(s.id)).map((s) => s.id);

function withCounts(parts: StatusSharedParts, c: StatusCounts | undefined): StatusSharedParts {
  return {
    ...parts,
    repliesCount: c?.replies ?? 0,
    reblogsCount: c?.reblogs ?? 0,
    favouritesCount: c?.favourites ?? 0,
    quotesCount: c?.quotes ?? 0,
  };
}

/**
 * The shared parts of each status (by id); the statuses must be distinct. Those of `fresh`
 * were stored by this very request: their counters are zero and they have no card yet (its
 * job runs after the post), so neither is read.
 */
export async function loadSharedParts(
  ctx: ServiceContext,
  statuses: readonly Status[],
  fresh: ReadonlySet<string> = new Set(),
): Promise<Map<string, StatusSharedParts>> {
  const { storage } = ctx;
  const cache = keptFor(storage);
  const rest = storage.versionOf(REST_KINDS);
  const counts = storage.versionOf(COUNT_KINDS);
  const out = new Map<string, StatusSharedParts>();
  const missing: Status[] = [];
  /** Kept parts whose counters alone may be stale (acts were written since). */
  const recount: Kept[] = [];
  for (const status of statuses) {
    // A fresh status is never looked up: what it holds is known, whatever was kept.
    const hit = fresh.has(status.id) ? undefined : cache.get(status.id);
    if (hit === undefined || hit.status !== status || hit.rest !== rest) missing.push(status);
    else if (hit.counts === counts || status.reblogOfId !== null) out.set(status.id, hit.parts);
    else recount.push(hit);
  }
  if (missing.length === 0 && recount.length === 0) return out;
  const [loaded, recounted] = await Promise.all([
    missing.length > 0 ? readSharedParts(ctx, missing, fresh) : new Map(),
    recount.length > 0
      ? storage.joined.statusCounts(recount.map((k) => k.status.id))
      : new Map<string, StatusCounts>(),
  ]);
  // Parts read while a version moved may mix before and after; filed under the versions they
  // started at, they would never be served again: not kept, so they take no room.
  const keep = storage.versionOf(REST_KINDS) === rest && storage.versionOf(COUNT_KINDS) === counts;
  const file = (status: Status, parts: StatusSharedParts) => {
    out.set(status.id, parts);
    // A fresh status's zeros are known, not read: kept, they could outlive a favourite made
    // meanwhile in another process whose signal moved no version yet. The next read reads.
    if (keep && !fresh.has(status.id)) cache.set(status.id, { status, rest, counts, parts });
  };
  for (const status of missing) file(status, loaded.get(status.id) as StatusSharedParts);
  for (const { status, parts } of recount) {
    file(status, withCounts(parts, recounted.get(status.id)));
  }
  return out;
}

async function readSharedParts(
  ctx: ServiceContext,
  unique: readonly Status[],
  fresh: ReadonlySet<string>,
): Promise<Map<string, StatusSharedParts>> {
  const { storage } = ctx;
  const accountIds = [...new Set(unique.flatMap((s) => [s.accountId, ...s.mentionIds]))];
  const appIds = [...new Set(unique.flatMap((s) => (s.applicationId ? [s.applicationId] : [])))];
  const counted = countedIds(unique, fresh);
  const mediaIds = [...new Set(unique.flatMap((s) => s.mediaIds))];
  // Only statuses with a link and no attachments can have a card (services/cards/fetch-card.ts).
  const linking = unique
    .filter(
      (s) =>
        s.reblogOfId === null &&
        s.mediaIds.length === 0 &&
        s.contentHtml.includes("href=") &&
        !fresh.has(s.id),
    )
    .map((s) => s.id);
  const [accounts, apps, counts, media, cards] = await Promise.all([
    storage.accounts.getMany(accountIds),
    appIds.length > 0 ? storage.apps.getMany(appIds) : new Map<string, OAuthApp>(),
    counted.length > 0 ? storage.joined.statusCounts(counted) : new Map<string, StatusCounts>(),
    mediaIds.length > 0 ? storage.media.getMany(mediaIds) : new Map<string, MediaAttachment>(),
    linking.length > 0 ? loadStatusCards(ctx, linking) : new Map<string, PreviewCard>(),
  ]);
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
  const accountViews = new Map(views.map((v) => [v.account.id, v]));
  const out = new Map<string, StatusSharedParts>();
  unique.forEach((status, i) => {
    const c = counts.get(status.id);
    const app = status.applicationId ? apps.get(status.applicationId) : undefined;
    out.set(status.id, {
      account: accountViews.get(status.accountId),
      application: app ? { name: app.name, website: app.website } : null,
      mentions: status.mentionIds.flatMap((id) => {
        const a = accounts.get(id);
        return a ? [a] : [];
      }),
      repliesCount: c?.replies ?? 0,
      reblogsCount: c?.reblogs ?? 0,
      favouritesCount: c?.favourites ?? 0,
      quotesCount: c?.quotes ?? 0,
      media: status.mediaIds.flatMap((id) => {
        const m = media.get(id);
        return m ? [m] : [];
      }),
      emojis: emojiLists[i] ?? [],
      card: cards.get(status.id) ?? null,
    });
  });
  return out;
}
