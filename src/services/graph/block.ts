// Block an account (Mastodon's BlockService): every follow and follow request between the two,
// in either direction, ends; then the block is recorded. Blocking yourself does nothing.
// Blocking again keeps the first block (and its place in the blocks list).

import type { DomainEvent } from "../../domain/events.ts";
import type { Block } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { publishAllAround } from "../events.ts";
import { requireAccount } from "./target-account.ts";

export async function blockAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  if (target.id === viewerId) return;
  const { follows, followRequests, blocks } = ctx.storage;
  const [ended, closed, existing] = await Promise.all([
    Promise.all([follows.get(viewerId, target.id), follows.get(target.id, viewerId)]),
    Promise.all([followRequests.get(viewerId, target.id), followRequests.get(target.id, viewerId)]),
    blocks.get(viewerId, target.id),
  ]);
  const block: Block | undefined = existing
    ? undefined
    : {
        id: ctx.ids.next(),
        accountId: viewerId,
        targetId: target.id,
        createdAt: ctx.clock.now().toISOString(),
        uri: null,
      };
  const events: DomainEvent[] = [
    ...ended.flatMap((follow) =>
      follow ? [{ type: "account.unfollowed" as const, follow, cause: "block" as const }] : [],
    ),
    ...closed.flatMap((request) =>
      request
        ? [{ type: "follow_request.closed" as const, request, outcome: "blocked" as const }]
        : [],
    ),
    ...(block ? [{ type: "account.blocked" as const, block }] : []),
  ];
  // Every event is recorded before the edges change (ADR 0013): a crash after the first write
  // still sends the Block and the Undos of what it ended.
  await publishAllAround(ctx.events, events, async () => {
    await Promise.all([
      follows.delete(viewerId, target.id),
      follows.delete(target.id, viewerId),
      followRequests.delete(viewerId, target.id),
      followRequests.delete(target.id, viewerId),
    ]);
    if (block) await blocks.put(block);
  });
}
