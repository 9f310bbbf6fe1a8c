// The home timeline, generated on read: the viewer's own statuses and reblogs plus those of
// every account they follow, newest first, filtered as Mastodon's home feed is (home-filter.ts)
// and never holding a status the viewer may not see. Returned as entries; the HTTP layer
// hydrates them.

import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { collectPage } from "./collect-page.ts";
import { filterHome } from "./home-filter.ts";
import { keepVisible, resolveEntries } from "./resolve-entries.ts";

export async function homeTimeline(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<TimelineEntry[]> {
  const followed = await ctx.storage.follows.allTargetsFrom(viewerId);
  const authors = [viewerId, ...followed.filter((id) => id !== viewerId)];
  return collectPage(page, {
    read: (window) => ctx.storage.statuses.listEntriesByAccounts(authors, window),
    idOf: (entry) => entry.status_id,
    async keep(batch) {
      const resolved = await resolveEntries(ctx, batch);
      const filtered = await filterHome(ctx, viewerId, resolved);
      return (await keepVisible(ctx, viewerId, filtered)).map((item) => item.entry);
    },
  });
}
