// Unfollow an account, or withdraw a pending request to follow it (Mastodon's UnfollowService).
// Answering for an account that was not followed is not an error.

import type { ServiceContext } from "../context.ts";
import { requireAccount } from "./target-account.ts";

export async function unfollowAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  const [follow, request] = await Promise.all([
    ctx.storage.follows.get(viewerId, target.id),
    ctx.storage.followRequests.get(viewerId, target.id),
  ]);
  const [unfollowed, withdrawn] = await Promise.all([
    ctx.storage.follows.delete(viewerId, target.id),
    ctx.storage.followRequests.delete(viewerId, target.id),
  ]);
  if (follow && unfollowed)
    await ctx.events.publish({ type: "account.unfollowed", follow, cause: "unfollow" });
  if (request && withdrawn)
    await ctx.events.publish({ type: "follow_request.closed", request, outcome: "withdrawn" });
}
