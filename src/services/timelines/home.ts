// The home timeline, generated on read: the viewer's own statuses and reblogs plus those of
// every account they follow, newest first, filtered as Mastodon's home feed is (home-filter.ts)
// and never holding a status the viewer may not see. Returned resolved (each status with its
// boosted original), ready for hydration without reading them again.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { filterHome } from "./home-filter.ts";
import { keepVisible, lineUp, type ResolvedEntry, resolveEntries } from "./resolve-entries.ts";

export async function homeTimeline(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<ResolvedEntry[]> {
  const followed = await ctx.storage.follows.allTargetsFrom(viewerId);
  const authors = [viewerId, ...followed.filter((id) => id !== viewerId)];
  const filled = await fillPage(page, {
    read: (window) => ctx.storage.statuses.listEntriesByAccounts(authors, window),
    idOf: (entry) => entry.status_id,
    async keep(batch) {
      const resolved = await resolveEntries(ctx, batch);
      const filtered = await filterHome(ctx, viewerId, resolved);
      const visible = await keepVisible(ctx, viewerId, filtered);
      return lineUp(
        batch.map((e) => e.status_id),
        await withoutHidden(ctx, viewerId, "home", visible),
      );
    },
  });
  return filled.items;
}
