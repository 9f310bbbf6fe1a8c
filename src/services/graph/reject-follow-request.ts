// Decline a pending follow request to the viewer (Mastodon's RejectFollowService).

import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { requireAccount } from "./target-account.ts";

export async function rejectFollowRequest(
  ctx: ServiceContext,
  viewerId: string,
  requesterId: string,
): Promise<void> {
  const requester = await requireAccount(ctx, requesterId);
  const request = await ctx.storage.followRequests.get(requester.id, viewerId);
  const removed = await ctx.storage.followRequests.delete(requester.id, viewerId);
  if (!request || !removed) throw notFound();
  await ctx.events.publish({ type: "follow_request.closed", request, outcome: "rejected" });
}
