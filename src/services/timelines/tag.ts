// The hashtag timeline: public statuses carrying the tag (or, with `any`, any of the extra
// tags), narrowed by `all` (every one of these too) and `none` (none of these), local/remote
// and media-only as the public timeline, minus accounts the viewer has shut out. Replies stay,
// as in Mastodon's TagFeed. A name that cannot be a hashtag yields an empty timeline (Mastodon
// finds no such tag and answers an empty list), and so does a hashtag the staff made unusable.

import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage, PublicFilter } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { reviewsOf } from "../discovery/trend-reviews.ts";
import { fillPage } from "../fill-page.ts";
import { keptWindows, resolvedWindow, windowKey } from "./kept-windows.ts";
import { mergeWindows } from "./merge-windows.ts";
import { type OriginOptions, publicFilterOf } from "./origin.ts";
import { keepPublic, type PublicOptions, resolvePublic } from "./public-filter.ts";
import type { ResolvedEntry } from "./resolve-entries.ts";

/** Mastodon applies at most this many tags from each of any/all/none. */
export const TAGS_PER_MODE = 4;
const MAX_TAG_LENGTH = 100;
const HASHTAG_NAME = /^[\p{L}\p{M}\p{N}_\u00b7\u200c]+$/u;

/** The comparable form of a hashtag name, or null when it cannot be one. */
export function normalizeTag(raw: string): string | null {
  const name = raw.trim().replace(/^#/, "").normalize("NFKC").toLowerCase();
  if (name.length === 0 || name.length > MAX_TAG_LENGTH || !HASHTAG_NAME.test(name)) return null;
  return name;
}

function normalizeAll(names: readonly string[] | undefined): string[] {
  const out = new Set<string>();
  for (const raw of (names ?? []).slice(0, TAGS_PER_MODE)) {
    const name = normalizeTag(raw);
    if (name !== null) out.add(name);
  }
  return [...out];
}

/** Windows of hashtag timelines (kept-windows.ts), the same for every reader. */
const readKept = keptWindows(500);

export interface TagTimelineOptions extends OriginOptions {
  any?: readonly string[];
  all?: readonly string[];
  none?: readonly string[];
}

export async function tagTimeline(
  ctx: ServiceContext,
  viewerId: string | null,
  hashtag: string,
  options: TagTimelineOptions,
  page: IdPage,
): Promise<ResolvedEntry[]> {
  const tag = normalizeTag(hashtag);
  const filter = publicFilterOf(options);
  if (tag === null || filter === null) return [];
  // A hashtag a moderator made unusable has no timeline (Admin::Tag's `usable`).
  const named = [...new Set([tag, ...normalizeAll(options.any)])];
  const reviews = await reviewsOf(ctx, "tag", named);
  const sources = named.filter((name) => reviews.get(name)?.usable !== false);
  if (!sources.includes(tag)) return [];
  // Names that cannot be hashtags are dropped from every mode: Mastodon looks the names up as
  // tags and simply finds none for them.
  const all = normalizeAll(options.all);
  const none = normalizeAll(options.none);

  const hasTag = (tags: readonly string[], name: string) =>
    tags.some((t) => t.normalize("NFKC").toLowerCase() === name);

  const keeping: PublicOptions = {
    withReplies: true,
    also: (status) =>
      all.every((name) => hasTag(status.tags, name)) &&
      !none.some((name) => hasTag(status.tags, name)),
  };
  const filled = await fillPage(page, {
    read: (window) =>
      readKept(
        ctx,
        windowKey([sources, filter.origin, filter.onlyMedia === true, all, none], window),
        {
          list: () => readUnion(ctx, sources, window, filter),
          resolve: (entries) => resolvePublic(ctx, entries, keeping),
        },
      ),
    idOf: (entry) => entry.status_id,
    keep: (batch) => keepPublic(ctx, viewerId, batch, keeping, resolvedWindow(batch)),
  });
  return filled.items;
}

async function readUnion(
  ctx: ServiceContext,
  tags: readonly string[],
  window: IdPage,
  filter: PublicFilter,
): Promise<TimelineEntry[]> {
  const lists = await Promise.all(
    tags.map((t) => ctx.storage.statuses.listTagEntries(t, window, filter)),
  );
  return mergeWindows(lists, window);
}
