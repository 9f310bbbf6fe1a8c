// The local followers of an account that moved follow the new account instead, as Mastodon's
// MoveWorker has them do: each follows the target with the same options (a request where the
// target must accept), the target joins every list the old account was in, the follower gets a
// `move` notification, and the follow of the old account ends. A follower the target blocks (or
// who blocks it) stays where they were. Run again (a retried event), it finds only the followers
// not moved yet: the moved ones no longer follow the old account.

import { type Account, isLocal } from "../../domain/account.ts";
import { AppError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { followAccount } from "../graph/follow.ts";
import { unfollowAccount } from "../graph/unfollow.ts";
import { addListMembers } from "../lists/add-members.ts";
import { notify } from "../notifications/notify.ts";
import { walkPages } from "../paging.ts";

/** Returns how many local followers were moved over. */
export async function moveLocalFollowers(
  ctx: ServiceContext,
  origin: Account,
  target: Account,
): Promise<number> {
  let count = 0;
  // Collected first: each move removes its follow from the pages being walked.
  const followers: Account[] = [];
  for await (const follow of walkPages((page) => ctx.storage.follows.listTo(origin.id, page))) {
    const follower = await ctx.storage.accounts.get(follow.accountId);
    if (follower && isLocal(follower) && follower.id !== target.id) followers.push(follower);
  }
  for (const follower of followers) {
    const follow = await ctx.storage.follows.get(follower.id, origin.id);
    if (!follow) continue;
    try {
      await followAccount(ctx, follower.id, target.id, {
        reblogs: follow.showReblogs,
        notify: follow.notify,
        languages: follow.languages,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      continue;
    }
    await carryListMemberships(ctx, follower.id, origin.id, target.id);
    await notify(ctx, {
      recipientId: follower.id,
      type: "move",
      fromAccountId: origin.id,
      status: null,
    });
    await unfollowAccount(ctx, follower.id, origin.id);
    count += 1;
  }
  return count;
}

/** The target joins the owner's lists that hold the old account (before that one leaves them). */
async function carryListMemberships(
  ctx: ServiceContext,
  ownerId: string,
  originId: string,
  targetId: string,
): Promise<void> {
  const owned = await ctx.storage.lists.listByAccount(ownerId);
  if (owned.length === 0) return;
  const memberships = await ctx.storage.listMembers.findTo(
    originId,
    owned.map((list) => list.id),
  );
  for (const listId of memberships.keys()) {
    try {
      await addListMembers(ctx, ownerId, listId, [targetId]);
    } catch (error) {
      // Already in that list: nothing to carry.
      if (!(error instanceof AppError)) throw error;
    }
  }
}
