// The public (federated) timeline and its local/remote halves: public statuses that are not
// boosts, leaving out replies to other accounts (self-replies, i.e. threads, stay), as Mastodon's
// PublicFeed does. A signed-in viewer does not see accounts they block or mute, nor accounts
// blocking them. Needs no token.

import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { collectPage } from "./collect-page.ts";
import { type OriginOptions, publicFilterOf } from "./origin.ts";
import { keepPublic } from "./public-filter.ts";

export async function publicTimeline(
  ctx: ServiceContext,
  viewerId: string | null,
  options: OriginOptions,
  page: IdPage,
): Promise<TimelineEntry[]> {
  const filter = publicFilterOf(options);
  if (filter === null) return [];
  return collectPage(page, {
    read: (window) => ctx.storage.statuses.listPublicEntries(window, filter),
    idOf: (entry) => entry.status_id,
    keep: (batch) => keepPublic(ctx, viewerId, batch, { withReplies: false }),
  });
}
