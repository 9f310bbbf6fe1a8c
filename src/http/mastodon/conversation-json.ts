// Loads what Conversation entities embed (participant accounts, the last status as the viewer
// sees it) in one batch per call and serialises them.

import type { Account } from "../../domain/account.ts";
import type { Conversation } from "../../domain/conversation.ts";
import type { Status } from "../../domain/status.ts";
import {
  type ConversationJson,
  serializeConversation,
} from "../../serialization/mastodon/conversation.ts";
import type { ServiceContext } from "../../services/context.ts";
import { renderAccounts } from "./account-json.ts";
import { renderStatuses } from "./status-json.ts";

export async function renderConversations(
  ctx: ServiceContext,
  conversations: readonly Conversation[],
  viewerId: string,
): Promise<ConversationJson[]> {
  // A conversation with nobody else (a direct note to oneself) lists the viewer, as Mastodon does.
  const participantIdsOf = (c: Conversation) =>
    c.participantIds.length > 0 ? c.participantIds : [viewerId];
  const accountIds = [...new Set(conversations.flatMap(participantIdsOf))];
  const [accountMap, statusMap] = await Promise.all([
    ctx.storage.accounts.getMany(accountIds),
    ctx.storage.statuses.getMany([...new Set(conversations.map((c) => c.lastStatusId))]),
  ]);
  const accounts = accountIds.flatMap((id) => accountMap.get(id) ?? []) as Account[];
  const statuses = [...statusMap.values()] as Status[];
  const [accountJson, statusJson] = await Promise.all([
    renderAccounts(ctx, accounts),
    renderStatuses(ctx, statuses, viewerId),
  ]);
  const accountById = new Map(accountJson.map((a) => [a.id, a]));
  const statusById = new Map(statusJson.map((s) => [s.id, s]));
  return conversations.map((c) =>
    serializeConversation(
      c,
      participantIdsOf(c).flatMap((id) => accountById.get(id) ?? []),
      statusById.get(c.lastStatusId) ?? null,
    ),
  );
}

export async function renderConversation(
  ctx: ServiceContext,
  conversation: Conversation,
  viewerId: string,
): Promise<ConversationJson> {
  const [json] = await renderConversations(ctx, [conversation], viewerId);
  return json as ConversationJson;
}
