// The home timeline, generated on read: the viewer's own statuses and reblogs plus those of
// every account they follow, and public posts with a hashtag they follow (followed-tags.ts),
// newest first, filtered as Mastodon's home feed is (home-filter.ts) and never holding a status
// the viewer may not see. Returned resolved (each status with its boosted original), ready for
// hydration without reading them again.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { keptForViewer, type ViewerPart } from "../viewer-memo.ts";
import { type FollowedTagsSource, followedTagsSource } from "./followed-tags.ts";
import { filterHome } from "./home-filter.ts";
import { keptWindows, resolvedWindow, windowKey } from "./kept-windows.ts";
import { keepVisible, lineUp, type ResolvedEntry, resolveEntries } from "./resolve-entries.ts";

/**
 * Whose entries home lists: the viewer and every account they follow. Kept between writes
 * (viewer-memo.ts), as a list for the store's merge and a set for the filters.
 */
export const HOME_AUTHORS: ViewerPart<{
  authors: readonly string[];
  byAuthor: ReadonlySet<string>;
}> = {
  name: "home authors",
  kinds: ["relations"],
  async read(ctx, viewerId) {
    const followed = await ctx.storage.follows.allTargetsFrom(viewerId);
    const authors = [viewerId, ...followed.filter((id) => id !== viewerId)];
    return { authors, byAuthor: new Set(authors) };
  },
  size: ({ authors }) => authors.length,
};

/**
 * Windows of home timelines (kept-windows.ts), each by its viewer: the listing merges the
 * viewer's followed accounts and tags, which the storage's version also fixes.
 */
const readKept = keptWindows(2_000);

export async function homeTimeline(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<ResolvedEntry[]> {
  const { authors, byAuthor } = await keptForViewer(ctx, HOME_AUTHORS, viewerId);
  const source = await followedTagsSource(ctx, viewerId, authors);
  const filled = await fillPage(page, {
    read: (window) =>
      readKept(ctx, windowKey([viewerId], window), {
        list: () => source.read(window),
        resolve: (entries) => resolveEntries(ctx, entries),
      }),
    idOf: (entry) => entry.status_id,
    async keep(batch) {
      const resolved = resolvedWindow(batch) ?? (await resolveEntries(ctx, batch));
      return lineUp(
        batch.map((e) => e.status_id),
        await keepHome(ctx, viewerId, resolved, byAuthor, source),
      );
    },
  });
  return filled.items;
}

/**
 * Of a resolved batch, what the viewer's home timeline shows: entries of `authors` (the viewer
 * and whom they follow) under the home rules, and the followed tags' statuses, that the viewer
 * may see and does not hide. The streaming API asks the same of each new status.
 */
export async function keepHome(
  ctx: ServiceContext,
  viewerId: string,
  resolved: readonly ResolvedEntry[],
  authors: ReadonlySet<string>,
  source: FollowedTagsSource,
): Promise<ResolvedEntry[]> {
  const fromAuthors = resolved.filter((i) => authors.has(i.entry.account_id));
  const filtered = await filterHome(ctx, viewerId, fromAuthors);
  const tagged = await source.keep(resolved, filtered);
  const visible = await keepVisible(ctx, viewerId, [...filtered, ...tagged]);
  return withoutHidden(ctx, viewerId, "home", visible);
}
