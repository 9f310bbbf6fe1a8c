// Keeps direct-message conversations in step with statuses: a new direct status is added to its
// participants' conversations, a deleted one removed. Edits change neither (as in Mastodon).

import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { addStatusToConversations } from "./add-status.ts";
import { removeStatusFromConversations } from "./remove-status.ts";

export function conversationListener(ctx: ServiceContext): EventListener {
  return async (event) => {
    if (event.type === "status.created") await addStatusToConversations(ctx, event.status);
    else if (event.type === "status.deleted")
      await removeStatusFromConversations(ctx, event.status);
  };
}
