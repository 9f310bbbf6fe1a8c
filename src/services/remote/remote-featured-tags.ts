// A remote account's featured hashtags, as its actor's featuredTags collection lists them
// (Mastodon's FetchFeaturedTagsCollectionService): the stored set is replaced by the listed
// names, keeping the features that stay (with the spelling now given), at most ten.

import type { FeaturedTag } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { listFeaturedTags, MAX_FEATURED_TAGS } from "../tags/featured-tags.ts";
import { parseTagName } from "../tags/tag-name.ts";

export async function syncRemoteFeaturedTags(
  ctx: ServiceContext,
  accountId: string,
  names: readonly string[],
): Promise<void> {
  const wanted = new Map<string, string>();
  for (const raw of names) {
    const name = parseTagName(raw);
    if (name && !wanted.has(name.normalized)) wanted.set(name.normalized, name.display);
    if (wanted.size >= MAX_FEATURED_TAGS) break;
  }
  await ctx.storage.coordination.withLock(`featured-tags:${accountId}`, async () => {
    const stored = await listFeaturedTags(ctx, accountId);
    const now = ctx.clock.now().toISOString();
    for (const tag of stored) {
      const display = wanted.get(tag.targetId);
      if (display === undefined) await ctx.storage.featuredTags.delete(accountId, tag.targetId);
      else if (display !== tag.name) await ctx.storage.featuredTags.put({ ...tag, name: display });
    }
    const have = new Set(stored.map((t) => t.targetId));
    // Oldest listed first, so the collection's first item ends up the newest edge.
    for (const [normalized, display] of [...wanted].reverse()) {
      if (have.has(normalized)) continue;
      const tag: FeaturedTag = {
        id: ctx.ids.next(),
        accountId,
        targetId: normalized,
        name: display,
        createdAt: now,
      };
      await ctx.storage.featuredTags.put(tag);
    }
  });
}
