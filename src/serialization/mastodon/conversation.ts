// Mastodon's Conversation entity: one account's view of a direct-message thread. The accounts
// and the last status arrive already serialised (they need hydration); this only assembles. Pure.

import type { Conversation } from "../../domain/conversation.ts";
import type { AccountJson } from "./account.ts";
import type { StatusJson } from "./status.ts";

export interface ConversationJson {
  id: string;
  unread: boolean;
  accounts: AccountJson[];
  last_status: StatusJson | null;
}

export function serializeConversation(
  conversation: Conversation,
  accounts: AccountJson[],
  lastStatus: StatusJson | null,
): ConversationJson {
  return {
    id: conversation.id,
    unread: conversation.unread,
    accounts,
    last_status: lastStatus,
  };
}
