// Serialises Conversation entities for the client API; what they embed is hydrated in one batch
// per call by the read side (views/conversation-view.ts).

import type { Conversation } from "../../domain/conversation.ts";
import type { AccountJson } from "../../serialization/mastodon/account.ts";
import { serializeAccount } from "../../serialization/mastodon/account.ts";
import {
  type ConversationJson,
  serializeConversation,
} from "../../serialization/mastodon/conversation.ts";
import { serializeStatus } from "../../serialization/mastodon/status.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { AccountView } from "../../views/account-view.ts";
import { loadConversationViews } from "../../views/conversation-view.ts";
import { urlContext } from "./account-json.ts";

export async function renderConversations(
  ctx: ServiceContext,
  conversations: readonly Conversation[],
  viewerId: string,
): Promise<ConversationJson[]> {
  const urls = urlContext(ctx);
  // A participant of several conversations is serialised once.
  const accounts = new Map<string, AccountJson>();
  const accountJson = (view: AccountView) => {
    let json = accounts.get(view.account.id);
    if (!json) {
      json = serializeAccount(view, urls);
      accounts.set(view.account.id, json);
    }
    return json;
  };
  return (await loadConversationViews(ctx, conversations, viewerId)).map((view) =>
    serializeConversation(
      view.conversation,
      view.participants.map(accountJson),
      view.lastStatus ? serializeStatus(view.lastStatus, urls) : null,
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
