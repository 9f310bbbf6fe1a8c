// Unmuting a conversation; one that was not muted is answered unchanged.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { originalOf } from "./target.ts";

export async function unmuteConversation(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const requested = await loadVisibleStatus(ctx, accountId, statusId);
  const { conversationId } = await originalOf(ctx, requested);
  await ctx.storage.coordination.withLock(`conversation-mute:${accountId}:${conversationId}`, () =>
    ctx.storage.conversationMutes.delete(accountId, conversationId),
  );
  return requested;
}
