// The read side of direct conversations: the participants and the last status as the viewer
// sees it, hydrated for a page of conversations in one batch.

import type { Conversation } from "../domain/conversation.ts";
import type { ServiceContext } from "../services/context.ts";
import { type AccountView, loadAccountViews } from "./account-view.ts";
import { loadStatusViews, type StatusView } from "./status-view.ts";

export interface ConversationView {
  conversation: Conversation;
  participants: AccountView[];
  /** Null when the last status is gone or cannot be shown. */
  lastStatus: StatusView | null;
}

export async function loadConversationViews(
  ctx: ServiceContext,
  conversations: readonly Conversation[],
  viewerId: string,
): Promise<ConversationView[]> {
  // A conversation with nobody else (a direct note to oneself) lists the viewer, as Mastodon does.
  const participantIdsOf = (c: Conversation) =>
    c.participantIds.length > 0 ? c.participantIds : [viewerId];
  const accountIds = [...new Set(conversations.flatMap(participantIdsOf))];
  const [accountMap, statusMap] = await Promise.all([
    ctx.storage.accounts.getMany(accountIds),
    ctx.storage.statuses.getMany([...new Set(conversations.map((c) => c.lastStatusId))]),
  ]);
  const [accountViews, statusViews] = await Promise.all([
    loadAccountViews(
      ctx,
      accountIds.flatMap((id) => accountMap.get(id) ?? []),
    ),
    loadStatusViews(
      ctx,
      [...statusMap.values()].filter((s) => !s.deleted),
      viewerId,
    ),
  ]);
  const accountById = new Map(accountViews.map((v) => [v.account.id, v]));
  const statusById = new Map(statusViews.map((v) => [v.status.id, v]));
  return conversations.map((conversation) => ({
    conversation,
    participants: participantIdsOf(conversation).flatMap((id) => accountById.get(id) ?? []),
    lastStatus: statusById.get(conversation.lastStatusId) ?? null,
  }));
}
