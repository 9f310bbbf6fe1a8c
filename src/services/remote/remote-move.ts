// A remote account moved to another one (Move). The caller has checked that the target names
// the origin in its `alsoKnownAs`. As Mastodon does, the origin is marked as moved and every
// local follower follows the target instead (moves/move-followers.ts).

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { moveLocalFollowers } from "../moves/move-followers.ts";

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
  return moveLocalFollowers(ctx, origin, target);
}
