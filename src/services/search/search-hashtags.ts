// Hashtag search, as Mastodon's Tag.search_for: tags whose name starts with the query (without
// `#`, any case), shortest names first, the exact name leading. Wren keeps no tag table: the
// tags are those of the SCAN_LIMIT most recent public statuses, and the exact name also when
// any public status carries it. Wren has no tag review, so `exclude_unreviewed` removes nothing.

import type { ServiceContext } from "../context.ts";
import { normalizeTag } from "../timelines/tag.ts";
import { SCAN_LIMIT } from "./search-statuses.ts";

const PAGE = 200;

export interface SearchHashtagsInput {
  query: string;
  limit: number;
  offset: number;
}

/** Tag names of recent public statuses. */
async function recentTags(ctx: ServiceContext): Promise<Set<string>> {
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
  const all = exact ? [query, ...names] : names;
  return all.slice(input.offset, input.offset + input.limit);
}
