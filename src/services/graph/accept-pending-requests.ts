// When an account stops being locked, the follow requests waiting for it are accepted at once,
// as Mastodon does: nobody is left "requested" toward an account that no longer approves.

import type { ServiceContext } from "../context.ts";
import { authorizeFollowRequest } from "./authorize-follow-request.ts";

export async function acceptPendingFollowRequests(
  ctx: ServiceContext,
  accountId: string,
): Promise<number> {
  let accepted = 0;
  for (;;) {
    const batch = await ctx.storage.followRequests.listTo(accountId, { limit: 100 });
    if (batch.length === 0) return accepted;
    for (const request of batch) {
      await authorizeFollowRequest(ctx, accountId, request.accountId);
      accepted += 1;
    }
  }
}
