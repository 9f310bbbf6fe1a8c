// Suspending a remote account does not suspend it on its own server: it would still receive the
// followers-only posts of the local accounts it follows (its server gets them for its other
// followers there, and shows them by its own follow records). So, as Mastodon's
// SuspendAccountService does, its follows of local accounts end with a Reject, which its server
// reads as "you no longer follow". Not undone by unsuspending: nobody can be made to follow again.

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";
import { collectPages } from "../paging.ts";

/**
 * Ends `account`'s follows of local accounts; returns how many. Called before the suspension is
 * stored: deliveries to a suspended account are refused, and the Reject must reach it.
 */
export async function rejectRemoteFollows(ctx: ServiceContext, account: Account): Promise<number> {
  if (account.domain === null) return 0;
  const { follows, accounts } = ctx.storage;
  // Collected first: each removal changes the pages being walked.
  const edges = await collectPages((page) => follows.listFrom(account.id, page));
  const targets = await accounts.getMany(edges.map((e) => e.targetId));
  let ended = 0;
  for (const follow of edges) {
    if (targets.get(follow.targetId)?.domain !== null) continue;
    // "removed": the local side ended it, which the outbox sends as a Reject.
    const removed = await publishIf(
      ctx.events,
      { type: "account.unfollowed", follow, cause: "removed" },
      () => follows.delete(account.id, follow.targetId),
    );
    if (removed) ended++;
  }
  return ended;
}
