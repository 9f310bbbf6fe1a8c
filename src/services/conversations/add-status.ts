// A new direct status lands in the conversations of its local author (read: they wrote it) and
// of each admitted local recipient (unread). An account has one entry per thread; a status in a
// thread the account removed from its list brings the entry back, as in Mastodon.

import { isLocal } from "../../domain/account.ts";
import type { Conversation } from "../../domain/conversation.ts";
import { compareIds } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { conversationLockKey, isDirectMessage, participantsOf, sortedIds } from "./participants.ts";
import { conversationRecipients } from "./recipients.ts";

async function upsertEntry(ctx: ServiceContext, ownerId: string, status: Status): Promise<void> {
  await ctx.storage.coordination.withLock(
    conversationLockKey(ownerId, status.conversationId),
    async () => {
      const existing = await ctx.storage.conversations.find(ownerId, status.conversationId);
      const others = participantsOf(status).filter((id) => id !== ownerId);
      // The newest status counted again (its event ran again after a crash or a retry) changes
      // nothing: above all it must not mark as unread what the owner has read since.
      if (
        existing?.lastStatusId === status.id &&
        others.every((id) => existing.participantIds.includes(id))
      ) {
        return;
      }
      const newest =
        existing === undefined || compareIds(status.id, existing.lastStatusId) > 0
          ? status.id
          : existing.lastStatusId;
      const entry: Conversation = {
        id: existing?.id ?? ctx.ids.next(),
        accountId: ownerId,
        conversationId: status.conversationId,
        participantIds: sortedIds([...(existing?.participantIds ?? []), ...others]),
        lastStatusId: newest,
        unread: status.accountId !== ownerId,
        updatedAt: ctx.clock.now().toISOString(),
      };
      await ctx.storage.conversations.put(entry);
    },
  );
}

export async function addStatusToConversations(ctx: ServiceContext, status: Status): Promise<void> {
  if (!isDirectMessage(status) || status.deleted) return;
  const owners = await conversationRecipients(ctx, status);
  const author = await ctx.storage.accounts.get(status.accountId);
  if (author && isLocal(author)) owners.unshift(author.id);
  for (const ownerId of owners) await upsertEntry(ctx, ownerId, status);
}
