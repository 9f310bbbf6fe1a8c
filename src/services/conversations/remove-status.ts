// A deleted direct status leaves the conversations it was the last status of: each such entry
// falls back to the newest remaining direct status of the thread that its owner wrote or was
// mentioned in, and is dropped when none is left (Mastodon removes the status from the entry and
// destroys an entry left without statuses).

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { conversationLockKey, isDirectMessage, participantsOf } from "./participants.ts";
import { previousThreadStatusFor } from "./thread-statuses.ts";

export async function removeStatusFromConversations(
  ctx: ServiceContext,
  status: Status,
): Promise<void> {
  if (!isDirectMessage(status)) return;
  for (const ownerId of participantsOf(status)) {
    await ctx.storage.coordination.withLock(
      conversationLockKey(ownerId, status.conversationId),
      async () => {
        const entry = await ctx.storage.conversations.find(ownerId, status.conversationId);
        if (!entry || entry.lastStatusId !== status.id) return;
        const previous = await previousThreadStatusFor(ctx, ownerId, entry.participantIds, status);
        if (!previous) {
          await ctx.storage.conversations.delete(entry.id);
          return;
        }
        await ctx.storage.conversations.put({
          ...entry,
          lastStatusId: previous.id,
          updatedAt: ctx.clock.now().toISOString(),
        });
      },
    );
  }
}
