// Followed hashtags in the home timeline: public, non-boost statuses carrying a tag the viewer
// follows join the followed accounts' entries, as Mastodon's FeedManager adds them for tag
// followers. Mastodon's rules for them (filter_from_tags?): not the viewer's own (home has those
// already), nothing from or mentioning an account the viewer blocks or mutes, nothing from an
// account that blocks the viewer. Reply rules of followed accounts do not apply to them.
// Visibility is still checked by the caller (keepVisible), like every home entry.

import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { keptForViewer, type ViewerPart } from "../viewer-memo.ts";
import { loadExclusions } from "./exclusions.ts";
import { mergeWindows } from "./merge-windows.ts";
import type { ResolvedEntry } from "./resolve-entries.ts";

export interface FollowedTagsSource {
  /** The authors' entries, with the followed tags' entries merged into the same window. */
  read(window: IdPage): Promise<TimelineEntry[]>;
  /** Of a resolved batch, the tagged statuses home shows besides those `kept` already. */
  keep(batch: readonly ResolvedEntry[], kept: readonly ResolvedEntry[]): Promise<ResolvedEntry[]>;
}

/** The tags the viewer follows, kept between writes (viewer-memo.ts): every home page asks. */
export const FOLLOWED_TAGS: ViewerPart<{ tags: readonly string[]; followed: ReadonlySet<string> }> =
  {
    name: "followed tags",
    kinds: ["relations"],
    async read(ctx, viewerId) {
      const tags = await ctx.storage.tagFollows.allTargetsFrom(viewerId);
      return { tags, followed: new Set(tags) };
    },
    size: ({ tags }) => tags.length,
  };

export async function followedTagsSource(
  ctx: ServiceContext,
  viewerId: string,
  authors: readonly string[],
): Promise<FollowedTagsSource> {
  const { tags, followed } = await keptForViewer(ctx, FOLLOWED_TAGS, viewerId);
  return {
    async read(window) {
      const lists = await Promise.all([
        ctx.storage.statuses.listEntriesByAccounts(authors, window),
        ...tags.map((tag) => ctx.storage.statuses.listTagEntries(tag, window, { origin: "all" })),
      ]);
      return mergeWindows(lists, window);
    },
    async keep(batch, kept) {
      if (followed.size === 0) return [];
      const shown = new Set(kept.map((i) => i.status.id));
      const candidates = batch.filter(
        ({ status }) =>
          !shown.has(status.id) &&
          status.accountId !== viewerId &&
          status.visibility === "public" &&
          status.reblogOfId === null &&
          status.tags.some((tag) => followed.has(tag)),
      );
      if (candidates.length === 0) return [];
      const exclusions = await loadExclusions(
        ctx,
        viewerId,
        candidates.flatMap(({ status }) => [status.accountId, ...status.mentionIds]),
      );
      const shutOut = (id: string) => exclusions.blocking.has(id) || exclusions.muting.has(id);
      return candidates.filter(
        ({ status }) => !exclusions.excludes(status.accountId) && !status.mentionIds.some(shutOut),
      );
    },
  };
}
