// The public (federated) timeline and its local/remote halves: public statuses that are not
// boosts, leaving out replies to other accounts (self-replies, i.e. threads, stay), as Mastodon's
// PublicFeed does. A signed-in viewer does not see accounts they block or mute, nor accounts
// blocking them. Needs no token. The listing and resolving, the same for every viewer, are kept
// between writes (public-windows.ts).

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { type OriginOptions, publicFilterOf } from "./origin.ts";
import { keepPublic } from "./public-filter.ts";
import { readPublicWindow, resolvedWindow } from "./public-windows.ts";
import type { ResolvedEntry } from "./resolve-entries.ts";

export async function publicTimeline(
  ctx: ServiceContext,
  viewerId: string | null,
  options: OriginOptions,
  page: IdPage,
): Promise<ResolvedEntry[]> {
  const filter = publicFilterOf(options);
  if (filter === null) return [];
  const keeping = { withReplies: false };
  const filled = await fillPage(page, {
    read: (window) => readPublicWindow(ctx, filter, window, keeping),
    idOf: (entry) => entry.status_id,
    keep: (batch) => keepPublic(ctx, viewerId, batch, keeping, resolvedWindow(batch)),
  });
  return filled.items;
}
