// Unfollow an account, or withdraw a pending request to follow it (Mastodon's UnfollowService).
// Answering for an account that was not followed is not an error.

import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";
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
  // Each event is recorded before its edge goes (ADR 0013): a crash after it still sends the Undo.
  // An edge that appeared since the read is removed all the same, without an event, as before.
  if (follow) {
    await publishIf(ctx.events, { type: "account.unfollowed", follow, cause: "unfollow" }, () =>
      ctx.storage.follows.delete(viewerId, target.id),
    );
  } else await ctx.storage.follows.delete(viewerId, target.id);
  if (request) {
    await publishIf(
      ctx.events,
      { type: "follow_request.closed", request, outcome: "withdrawn" },
      () => ctx.storage.followRequests.delete(viewerId, target.id),
    );
  } else await ctx.storage.followRequests.delete(viewerId, target.id);
}
