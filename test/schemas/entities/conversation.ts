/** Conversation, from Mastodon's documentation (entities/Conversation.md): a direct-message thread. */
import { arrayOf, boolean, entity, nullable, object, string } from "../json-schema.ts";

export const Conversation = object(
  { id: string, unread: boolean, accounts: arrayOf(entity("Account")) },
  { last_status: nullable(entity("Status")) },
  "A direct conversation with other accounts",
);
