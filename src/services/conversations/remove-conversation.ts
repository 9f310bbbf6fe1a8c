// DELETE /api/v1/conversations/:id: takes the thread off the viewer's list only; the other
// participants keep theirs, and a new message in the thread brings it back.

import type { ServiceContext } from "../context.ts";
import { ownConversation } from "./own-conversation.ts";
import { conversationLockKey } from "./participants.ts";

export async function removeConversation(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<void> {
  const found = await ownConversation(ctx, accountId, id);
  await ctx.storage.coordination.withLock(
    conversationLockKey(accountId, found.conversationId),
    async () => {
      await ctx.storage.conversations.delete(id);
    },
  );
}
