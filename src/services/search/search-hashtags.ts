// Hashtag search, as Mastodon's Tag.search_for: tags whose name starts with the query (without
// `#`, any case), shortest names first, the exact name leading. Wren keeps no tag table: the
// tags are those of the SCAN_LIMIT most recent public statuses, and the exact name also when
// any public status carries it. Tags a moderator made unlistable or unusable are left out (Admin::Tag
// flags), and with `exclude_unreviewed` every tag nobody reviewed but the exact name, as Mastodon.

import type { ServiceContext } from "../context.ts";
import { reviewsOf } from "../discovery/trend-reviews.ts";
import { normalizeTag } from "../timelines/tag.ts";
import { SCAN_LIMIT } from "./search-statuses.ts";

const PAGE = 200;

export interface SearchHashtagsInput {
  query: string;
  limit: number;
  offset: number;
  excludeUnreviewed?: boolean | undefined;
}

/** Tag names of recent public statuses. */
export async function recentTags(ctx: ServiceContext): Promise<Set<string>> {
  const tags = new Set<string>();
  let maxId: string | undefined;
  for (let scanned = 0; scanned < SCAN_LIMIT; scanned += PAGE) {
    const entries = await ctx.storage.statuses.listPublicEntries(
      { limit: PAGE, maxId },
      { origin: "all" },
    );
    const statuses = await ctx.storage.statuses.getMany(entries.map((e) => e.status_id));
    for (const status of statuses.values()) for (const tag of status.tags) tags.add(tag);
    if (entries.length < PAGE) break;
    maxId = entries[entries.length - 1]?.status_id;
  }
  return tags;
}

export async function searchHashtags(
  ctx: ServiceContext,
  input: SearchHashtagsInput,
): Promise<string[]> {
  const query = normalizeTag(input.query);
  if (query === null || input.limit <= 0) return [];
  const names = [...(await recentTags(ctx))]
    .filter((name) => name.startsWith(query) && name !== query)
    .sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const exact =
    (await ctx.storage.statuses.listTagEntries(query, { limit: 1 }, { origin: "all" })).length > 0;
  const found = exact ? [query, ...names] : names;
  const reviews = await reviewsOf(ctx, "tag", found);
  const all = found.filter((name) => {
    const review = reviews.get(name);
    if (review?.usable === false || review?.listable === false) return false;
    return !input.excludeUnreviewed || name === query || (review?.reviewedAt ?? null) !== null;
  });
  return all.slice(input.offset, input.offset + input.limit);
}
