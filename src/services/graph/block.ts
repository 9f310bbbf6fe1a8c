// Block an account (Mastodon's BlockService): every follow and follow request between the two,
// in either direction, ends; then the block is recorded. Blocking yourself does nothing.
// Blocking again keeps the first block (and its place in the blocks list).

import type { ServiceContext } from "../context.ts";
import { requireAccount } from "./target-account.ts";

export async function blockAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  if (target.id === viewerId) return;
  const { follows, followRequests, blocks } = ctx.storage;
  const ended = await Promise.all([
    follows.get(viewerId, target.id),
    follows.get(target.id, viewerId),
  ]);
  const closed = await Promise.all([
    followRequests.get(viewerId, target.id),
    followRequests.get(target.id, viewerId),
  ]);
  await Promise.all([
    follows.delete(viewerId, target.id),
    follows.delete(target.id, viewerId),
    followRequests.delete(viewerId, target.id),
    followRequests.delete(target.id, viewerId),
  ]);
  for (const follow of ended) {
    if (follow) await ctx.events.publish({ type: "account.unfollowed", follow, cause: "block" });
  }
  for (const request of closed) {
    if (request)
      await ctx.events.publish({ type: "follow_request.closed", request, outcome: "blocked" });
  }
  if (await blocks.get(viewerId, target.id)) return;
  const block = {
    id: ctx.ids.next(),
    accountId: viewerId,
    targetId: target.id,
    createdAt: ctx.clock.now().toISOString(),
    uri: null,
  };
  await blocks.put(block);
  await ctx.events.publish({ type: "account.blocked", block });
}
