// The viewer's conversations, the one with the newest last status first, paged by that status's
// id (Mastodon pages conversations by last_status_id, not by their own id).

import type { Conversation } from "../../domain/conversation.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

export interface ConversationPage {
  conversations: Conversation[];
  /** Paging ids for the Link header: last status ids of the first and last entries. */
  newestId: string | undefined;
  oldestId: string | undefined;
}

export async function listConversations(
  ctx: ServiceContext,
  accountId: string,
  page: IdPage,
): Promise<ConversationPage> {
  const conversations = await ctx.storage.conversations.listFor(accountId, page);
  return {
    conversations,
    newestId: conversations[0]?.lastStatusId,
    oldestId: conversations.at(-1)?.lastStatusId,
  };
}
