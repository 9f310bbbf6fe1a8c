// Decline a pending follow request to the viewer (Mastodon's RejectFollowService).

import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";
import { requireAccount } from "./target-account.ts";

export async function rejectFollowRequest(
  ctx: ServiceContext,
  viewerId: string,
  requesterId: string,
): Promise<void> {
  const requester = await requireAccount(ctx, requesterId);
  const request = await ctx.storage.followRequests.get(requester.id, viewerId);
  if (!request) throw notFound();
  // Recorded before the request goes (ADR 0013): a crash after it still sends the Reject.
  const removed = await publishIf(
    ctx.events,
    { type: "follow_request.closed", request, outcome: "rejected" },
    () => ctx.storage.followRequests.delete(requester.id, viewerId),
  );
  if (!removed) throw notFound();
}
