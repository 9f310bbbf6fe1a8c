// Keeps lists to accounts their owner follows, as Mastodon's list memberships hang on the follow
// (or the pending request): when a follow ends (unfollow, removal from followers, a block, the
// account deleted) or a request closes unaccepted, the account leaves the owner's lists. Run again
// after a crash or by a late retry, it leaves alone an account the owner follows (again) by then.

import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { listsLockKey } from "./create-list.ts";

export function listMembershipListener(ctx: ServiceContext): EventListener {
  return async (event) => {
    if (event.type === "account.unfollowed") {
      await leaveOwnerLists(ctx, event.follow.accountId, event.follow.targetId);
    } else if (event.type === "follow_request.closed" && event.outcome !== "accepted") {
      await leaveOwnerLists(ctx, event.request.accountId, event.request.targetId);
    }
  };
}

async function leaveOwnerLists(ctx: ServiceContext, ownerId: string, accountId: string) {
  const { lists, listMembers, follows, followRequests } = ctx.storage;
  await ctx.storage.coordination.withLock(listsLockKey(ownerId), async () => {
    const owned = await lists.listByAccount(ownerId);
    if (owned.length === 0) return;
    const [follow, request] = await Promise.all([
      follows.get(ownerId, accountId),
      followRequests.get(ownerId, accountId),
    ]);
    if (follow || request) return;
    const memberships = await listMembers.findTo(
      accountId,
      owned.map((l) => l.id),
    );
    for (const listId of memberships.keys()) await listMembers.delete(listId, accountId);
  });
}
