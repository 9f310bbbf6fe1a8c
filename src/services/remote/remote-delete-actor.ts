// A remote actor was deleted by its server (Delete whose object is the actor itself). The
// record stays, marked suspended (ids stay stable and a later activity cannot revive it); its
// statuses are deleted and its follows, requests and favourites end, with the usual events so
// timelines, counters and notifications forget it. Each event is recorded before its edge goes
// (ADR 0013); the Delete is handled again after a crash in any case (the inbox job reruns).

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";
import { walkPages } from "../paging.ts";
import { deleteStatus } from "../statuses/delete-status.ts";

export async function deleteRemoteActor(ctx: ServiceContext, account: Account): Promise<void> {
  if (account.domain === null) return;
  if (!account.suspended || account.suspendedByItsServer) {
    // Deleted for good: a flag its server set before no longer matters.
    const { suspendedByItsServer: _f, ...unflagged } = account;
    await ctx.storage.accounts.put({
      ...unflagged,
      suspended: true,
      updatedAt: ctx.clock.now().toISOString(),
    });
  }
  await deleteAccountContent(ctx, account);
}

/**
 * Deletes the account's statuses and ends its follows, requests and favourites (both ways),
 * each with its event; the record itself stays. Also a moderator's deletion of a suspended
 * account's data (services/accounts/moderate-account.ts).
 */
export async function deleteAccountContent(ctx: ServiceContext, account: Account): Promise<void> {
  const { statuses, follows, followRequests, favourites } = ctx.storage;
  for await (const status of walkPages((page) => statuses.listByAccount(account.id, page))) {
    await deleteStatus(ctx, account.id, status.id);
  }
  for await (const follow of walkPages((page) => follows.listFrom(account.id, page))) {
    await publishIf(ctx.events, { type: "account.unfollowed", follow, cause: "unfollow" }, () =>
      follows.delete(account.id, follow.targetId),
    );
  }
  for await (const follow of walkPages((page) => follows.listTo(account.id, page))) {
    await publishIf(ctx.events, { type: "account.unfollowed", follow, cause: "removed" }, () =>
      follows.delete(follow.accountId, account.id),
    );
  }
  for await (const request of walkPages((page) => followRequests.listFrom(account.id, page))) {
    await publishIf(
      ctx.events,
      { type: "follow_request.closed", request, outcome: "withdrawn" },
      () => followRequests.delete(account.id, request.targetId),
    );
  }
  for await (const request of walkPages((page) => followRequests.listTo(account.id, page))) {
    await publishIf(
      ctx.events,
      { type: "follow_request.closed", request, outcome: "rejected" },
      () => followRequests.delete(request.accountId, account.id),
    );
  }
  for await (const favourite of walkPages((page) => favourites.listFrom(account.id, page))) {
    await publishIf(ctx.events, { type: "status.unfavourited", favourite }, () =>
      favourites.delete(account.id, favourite.targetId),
    );
  }
}
