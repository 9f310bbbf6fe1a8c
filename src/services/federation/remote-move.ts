// A remote account moved to another one (Move). The caller has checked that the target names
// the origin in its `alsoKnownAs`. As Mastodon does, the origin is marked as moved and every
// local follower follows the target instead (a request to a remote account, which the outbox
// bridge sends as a Follow) and stops following the origin.

import { type Account, isLocal } from "../../domain/account.ts";
import { AppError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { followAccount } from "../graph/follow.ts";
import { unfollowAccount } from "../graph/unfollow.ts";
import { walkPages } from "../paging.ts";

/** Returns how many local followers were moved over. */
export async function moveRemoteAccount(
  ctx: ServiceContext,
  origin: Account,
  target: Account,
): Promise<number> {
  if (!origin.remote || origin.id === target.id) return 0;
  if (origin.remote.movedTo !== target.uri) {
    const moved: Account = {
      ...origin,
      remote: { ...origin.remote, movedTo: target.uri },
      updatedAt: ctx.clock.now().toISOString(),
    };
    // Recorded before the record (ADR 0013).
    await publishAround(ctx.events, { type: "account.updated", account: moved }, () =>
      ctx.storage.accounts.put(moved),
    );
  }
  let count = 0;
  for await (const follow of walkPages((page) => ctx.storage.follows.listTo(origin.id, page))) {
    const follower = await ctx.storage.accounts.get(follow.accountId);
    if (!follower || !isLocal(follower)) continue;
    try {
      await followAccount(ctx, follower.id, target.id, {
        reblogs: follow.showReblogs,
        notify: follow.notify,
        languages: follow.languages,
      });
    } catch (error) {
      // A block between the follower and the target: that follower simply does not move.
      if (!(error instanceof AppError)) throw error;
      continue;
    }
    await unfollowAccount(ctx, follower.id, origin.id);
    count += 1;
  }
  return count;
}
