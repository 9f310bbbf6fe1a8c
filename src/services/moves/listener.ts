// A local account moved: its local followers follow the new account (move-followers.ts). The
// remote followers are the outbox's (a Move to their servers, which move them).

import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { moveLocalFollowers } from "./move-followers.ts";

export function accountMoveListener(ctx: ServiceContext): EventListener {
  return async (event) => {
    if (event.type !== "account.moved") return;
    await moveLocalFollowers(ctx, event.account, event.target);
  };
}
