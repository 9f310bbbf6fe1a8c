// POST /api/v1/conversations/:id/read: the viewer has seen the newest message of the thread.

import type { Conversation } from "../../domain/conversation.ts";
import type { ServiceContext } from "../context.ts";
import { ownConversation } from "./own-conversation.ts";
import { conversationLockKey } from "./participants.ts";

export async function markConversationRead(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<Conversation> {
  const found = await ownConversation(ctx, accountId, id);
  // Under the entry's lock, so a message arriving at the same moment is not overwritten.
  return ctx.storage.coordination.withLock(
    conversationLockKey(accountId, found.conversationId),
    async () => {
      const entry = await ownConversation(ctx, accountId, id);
      if (!entry.unread) return entry;
      const read: Conversation = { ...entry, unread: false };
      await ctx.storage.conversations.put(read);
      return read;
    },
  );
}
