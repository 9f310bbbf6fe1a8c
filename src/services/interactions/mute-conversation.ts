// Muting a conversation: the actor stops being notified about the thread the status belongs to
// (notifications honour it once they exist). Keyed by the thread's conversation id; a boost
// stands for its original's thread. Muting twice changes nothing.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { originalOf } from "./target.ts";

/** Returns the requested status, to render with the actor's updated `muted` flag. */
export async function muteConversation(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const requested = await loadVisibleStatus(ctx, accountId, statusId);
  const { conversationId } = await originalOf(ctx, requested);
  await ctx.storage.coordination.withLock(
    `conversation-mute:${accountId}:${conversationId}`,
    async () => {
      if (await ctx.storage.conversationMutes.get(accountId, conversationId)) return;
      await ctx.storage.conversationMutes.put({
        id: ctx.ids.next(),
        accountId,
        targetId: conversationId,
        createdAt: ctx.clock.now().toISOString(),
      });
    },
  );
  return requested;
}
