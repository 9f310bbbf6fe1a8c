// Remove an account from the viewer's followers (Mastodon's RemoveFromFollowersService). Only an
// accepted follow is removed; a pending request stays for the viewer to reject.

import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";
import { requireAccount } from "./target-account.ts";

export async function removeFromFollowers(
  ctx: ServiceContext,
  viewerId: string,
  followerId: string,
): Promise<void> {
  const follower = await requireAccount(ctx, followerId);
  const follow = await ctx.storage.follows.get(follower.id, viewerId);
  if (!follow) return;
  // Recorded before the edge goes (ADR 0013).
  await publishIf(ctx.events, { type: "account.unfollowed", follow, cause: "removed" }, () =>
    ctx.storage.follows.delete(follower.id, viewerId),
  );
}
