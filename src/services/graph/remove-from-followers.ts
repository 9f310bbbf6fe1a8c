// Remove an account from the viewer's followers (Mastodon's RemoveFromFollowersService). Only an
// accepted follow is removed; a pending request stays for the viewer to reject.

import type { ServiceContext } from "../context.ts";
import { requireAccount } from "./target-account.ts";

export async function removeFromFollowers(
  ctx: ServiceContext,
  viewerId: string,
  followerId: string,
): Promise<void> {
  const follower = await requireAccount(ctx, followerId);
  const follow = await ctx.storage.follows.get(follower.id, viewerId);
  if (follow && (await ctx.storage.follows.delete(follower.id, viewerId))) {
    await ctx.events.publish({ type: "account.unfollowed", follow, cause: "removed" });
  }
}
