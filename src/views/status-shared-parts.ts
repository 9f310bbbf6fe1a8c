// The part of a status's view that is the same for every viewer: its author's account view,
// application, mentioned accounts, counters, attachments, custom emojis and preview card. It is
// most of a timeline's hydration (about fifteen store reads per status, and the authors' counts),
// and it is kept between requests, keyed by Storage.version(): every change an answer can show
// moves that number (in every process sharing a database), so parts loaded while it held one value
// are exact as long as it holds it. A kept entry also remembers the very Status record it was
// built for (records are replaced, never changed in place), so a re-read record is never paired
// with parts of another. Between writes a page then costs only what depends on the viewer (flags,
// polls, filters, quotes); under a steady stream of writes entries are rebuilt as before.

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
  version: number;
  parts: StatusSharedParts;
}

/** A few pages of every active timeline; the parts share their objects with other entries. */
const KEPT_LIMIT = 20_000;

const keptFor = perOwner<Storage, LruCache<string, Kept>>(() => new LruCache(KEPT_LIMIT));

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
  const version = storage.version();
  const out = new Map<string, StatusSharedParts>();
  const missing: Status[] = [];
  for (const status of statuses) {
    // A fresh status is never looked up: what it holds is known, whatever was kept.
    const hit = fresh.has(status.id) ? undefined : cache.get(status.id);
    if (hit && hit.status === status && hit.version === version) out.set(status.id, hit.parts);
    else missing.push(status);
  }
  if (missing.length === 0) return out;
  const loaded = await readSharedParts(ctx, missing, fresh);
  // Parts read while the version moved may mix before and after; filed under the version they
  // started at, they would never be served again: not kept, so they take no room.
  const keep = storage.version() === version;
  for (const status of missing) {
    const parts = loaded.get(status.id) as StatusSharedParts;
    out.set(status.id, parts);
    // A fresh status's zeros are known, not read: kept, they could outlive a favourite made
    // meanwhile in another process whose signal moved no version yet. The next read reads.
    if (keep && !fresh.has(status.id)) cache.set(status.id, { status, version, parts });
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
  // Counters belong to originals; a reblog wrapper shows zeros as in Mastodon.
  const counted = unique.filter((s) => s.reblogOfId === null && !fresh.has(s.id)).map((s) => s.id);
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
