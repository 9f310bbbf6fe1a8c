// Tags to suggest featuring (Mastodon's Tag.recently_used): the tags of the account's most
// recent statuses, most used first, leaving out those already featured; at most ten.

import type { ServiceContext } from "../context.ts";

/** Mastodon looks at the last thousand statuses. */
const RECENT_STATUSES = 1000;
const PAGE = 250;
const SUGGESTIONS = 10;

export async function suggestFeaturedTags(
  ctx: ServiceContext,
  accountId: string,
): Promise<string[]> {
  const uses = new Map<string, number>();
  let maxId: string | undefined;
  for (let read = 0; read < RECENT_STATUSES; read += PAGE) {
    const statuses = await ctx.storage.statuses.listByAccount(accountId, { limit: PAGE, maxId });
    for (const status of statuses) {
      for (const tag of new Set(status.tags)) uses.set(tag, (uses.get(tag) ?? 0) + 1);
    }
    if (statuses.length < PAGE) break;
    maxId = statuses[statuses.length - 1]?.id;
  }
  const featured = new Set(await ctx.storage.featuredTags.allTargetsFrom(accountId));
  return (
    [...uses]
      .filter(([tag]) => !featured.has(tag))
      // Ties: the shorter, then the alphabetically first name, so the answer is stable.
      .sort(([a, m], [b, n]) => n - m || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, SUGGESTIONS)
      .map(([tag]) => tag)
  );
}
