// Follows between a remote actor and a local account, as their server reports them (Follow,
// Accept, Reject, Undo Follow). The same events as local follows are published, so the
// notifications appear and the outbox bridge answers: `account.followed` makes it send the
// Accept, `follow_request.closed` (rejected) the Reject.

import { type Account, isLocal } from "../../domain/account.ts";
import type { Follow } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { authorizeFollowRequest } from "../graph/authorize-follow-request.ts";
import { blockedDomains, onBlockedDomain } from "../graph/blocked-domains.ts";
import { storeNewFollow } from "../graph/follow.ts";
import { rejectFollowRequest } from "../graph/reject-follow-request.ts";
import { removeFromFollowers } from "../graph/remove-from-followers.ts";
import { unfollowAccount } from "../graph/unfollow.ts";
import { findInPages } from "../paging.ts";

export type RemoteFollowOutcome = "following" | "requested" | "refused";

/**
 * A remote actor follows a local account: a locked account gets a follow request, any other
 * is followed at once. `uri` is the Follow activity's id (the Accept/Reject will name it).
 */
export async function receiveFollow(
  ctx: ServiceContext,
  follower: Account,
  target: Account,
  uri: string,
): Promise<RemoteFollowOutcome> {
  const { follows, followRequests, blocks } = ctx.storage;
  const [blocked, existing, pending, domains] = await Promise.all([
    blocks.get(target.id, follower.id),
    follows.get(follower.id, target.id),
    followRequests.get(follower.id, target.id),
    blockedDomains(ctx, target.id),
  ]);
  const now = ctx.clock.now().toISOString();
  const edge: Follow = {
    id: ctx.ids.next(),
    accountId: follower.id,
    targetId: target.id,
    createdAt: now,
    showReblogs: true,
    notify: false,
    languages: null,
    uri,
  };
  // A user who blocked the follower's server refuses it, as a block of the follower would.
  const refused = blocked || onBlockedDomain(follower, domains);
  if (refused || !isLocal(target) || target.id === follower.id) {
    // Never stored; the closed request is what makes the outbox bridge send the Reject.
    await ctx.events.publish({ type: "follow_request.closed", request: edge, outcome: "rejected" });
    return "refused";
  }
  if (existing) {
    // The peer lost our Accept (Mastodon follows again in that case): keep the follow, take the
    // new activity id, and accept again without a second notification.
    const follow = { ...existing, uri };
    await publishAround(ctx.events, { type: "account.followed", follow, fromRequest: true }, () =>
      follows.put(follow),
    );
    return "following";
  }
  if (pending) {
    await followRequests.put({ ...pending, uri });
    return "requested";
  }
  return storeNewFollow(ctx, edge, target.locked);
}

/**
 * Our pending request to a remote account, found by the id of the Follow we sent (what an
 * Accept or Reject names) or, when the peer did not say, by the local follower.
 */
async function pendingRequestTo(
  ctx: ServiceContext,
  remote: Account,
  followUri: string | null,
  localFollowerId: string | null,
): Promise<Follow | undefined> {
  if (followUri !== null) {
    const byUri = await findInPages(
      (page) => ctx.storage.followRequests.listTo(remote.id, page),
      (request) => request.uri === followUri,
    );
    if (byUri) return byUri;
  }
  if (localFollowerId === null) return undefined;
  return ctx.storage.followRequests.get(localFollowerId, remote.id);
}

/** The remote account accepted a local account's follow request: it becomes a follow. */
export async function acceptRemoteFollow(
  ctx: ServiceContext,
  remote: Account,
  followUri: string | null,
  localFollowerId: string | null,
): Promise<boolean> {
  const request = await pendingRequestTo(ctx, remote, followUri, localFollowerId);
  if (!request) return false;
  await authorizeFollowRequest(ctx, remote.id, request.accountId);
  return true;
}

/**
 * The remote account refused a local account's follow (a pending request), or ended one it
 * had accepted (Mastodon rejects an accepted follow to remove a follower).
 */
export async function rejectRemoteFollow(
  ctx: ServiceContext,
  remote: Account,
  followUri: string | null,
  localFollowerId: string | null,
): Promise<boolean> {
  const request = await pendingRequestTo(ctx, remote, followUri, localFollowerId);
  if (request) {
    await rejectFollowRequest(ctx, remote.id, request.accountId);
    return true;
  }
  const follow =
    followUri === null
      ? undefined
      : await findInPages(
          (page) => ctx.storage.follows.listTo(remote.id, page),
          (f) => f.uri === followUri,
        );
  const followerId = follow?.accountId ?? localFollowerId;
  if (followerId === null || !(await ctx.storage.follows.get(followerId, remote.id))) return false;
  await removeFromFollowers(ctx, remote.id, followerId);
  return true;
}

/** The remote actor undid its Follow: the follow or the pending request ends. */
export async function undoRemoteFollow(
  ctx: ServiceContext,
  follower: Account,
  target: Account,
): Promise<void> {
  await unfollowAccount(ctx, follower.id, target.id);
}
