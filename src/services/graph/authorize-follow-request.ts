// Accept a pending follow request to the viewer (Mastodon's AuthorizeFollowService): the request
// becomes a follow with the options the requester chose. `requesterId` is the account asking.

import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { publishAllAround } from "../events.ts";
import { requireAccount } from "./target-account.ts";

export async function authorizeFollowRequest(
  ctx: ServiceContext,
  viewerId: string,
  requesterId: string,
): Promise<void> {
  const requester = await requireAccount(ctx, requesterId);
  const { follows, followRequests } = ctx.storage;
  const request = await followRequests.get(requester.id, viewerId);
  if (!request) throw notFound();
  // The follow is written before the request is dropped, so a crash in between leaves a
  // follow plus a stale request (authorizing again repairs it), never neither. Both events are
  // recorded first (ADR 0013); after a crash each runs if its own half was stored.
  const follow = { ...request, id: ctx.ids.next(), createdAt: ctx.clock.now().toISOString() };
  const events = [
    { type: "follow_request.closed", request, outcome: "accepted" },
    { type: "account.followed", follow, fromRequest: true },
  ] as const;
  await publishAllAround(ctx.events, events, async () => {
    await follows.put(follow);
    await followRequests.delete(requester.id, viewerId);
  });
}
