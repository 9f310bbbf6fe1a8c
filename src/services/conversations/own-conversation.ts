// Loads a conversation entry of the viewer; anyone else's, or an unknown id, is a 404 ("Record
// not found"), so ids of other people's entries reveal nothing.

import type { Conversation } from "../../domain/conversation.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export async function ownConversation(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<Conversation> {
  const entry = await ctx.storage.conversations.get(id);
  if (!entry || entry.accountId !== accountId) throw notFound();
  return entry;
}
