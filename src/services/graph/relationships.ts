// The viewer's relationship with many accounts at once (Mastodon's Relationship entity): nine
// edge lookups asked together (one statement on a database) and the accounts' servers against
// the viewer's domain blocks, whatever the number of ids. One result per requested id, in request
// order; an id with no edges (or no account) gets the default, every flag false.

import type { Follow, FollowRequest, Mute } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { domainBlockedAccounts } from "./blocked-domains.ts";
import { activeMute } from "./mute-expiry.ts";

export interface RelationshipView {
  /** The other account's id. */
  accountId: string;
  /** The viewer's follow of the account, with its options. */
  follow: Follow | undefined;
  /** The viewer's pending request to follow the account. */
  followRequest: FollowRequest | undefined;
  followedBy: boolean;
  /** The account asks to follow the viewer. */
  requestedBy: boolean;
  blocking: boolean;
  blockedBy: boolean;
  /** The viewer's mute of the account, only while it is in force. */
  mute: Mute | undefined;
  /** The viewer blocks the account's server (a user domain block). */
  domainBlocking: boolean;
  /** The viewer features the account on their profile. */
  endorsed: boolean;
  /** The viewer's private note about the account ("" for none). */
  note: string;
}

export async function loadRelationships(
  ctx: ServiceContext,
  viewerId: string,
  accountIds: readonly string[],
): Promise<RelationshipView[]> {
  if (accountIds.length === 0) return [];
  const ids = [...new Set(accountIds)];
  const [
    [following, followedBy, requested, requestedBy, blocking, blockedBy, muting, notes, endorsed],
    domainBlocked,
  ] = await Promise.all([
    ctx.storage.joined.edges(viewerId, [
      { kind: "follows", direction: "from", ids },
      { kind: "follows", direction: "to", ids },
      { kind: "followRequests", direction: "from", ids },
      { kind: "followRequests", direction: "to", ids },
      { kind: "blocks", direction: "from", ids },
      { kind: "blocks", direction: "to", ids },
      { kind: "mutes", direction: "from", ids },
      { kind: "accountNotes", direction: "from", ids },
      { kind: "endorsements", direction: "from", ids },
    ]),
    domainBlockedAccounts(ctx, viewerId, ids),
  ]);
  const now = ctx.clock.now();
  return accountIds.map((accountId) => ({
    accountId,
    follow: following.get(accountId),
    followRequest: requested.get(accountId),
    followedBy: followedBy.has(accountId),
    requestedBy: requestedBy.has(accountId),
    blocking: blocking.has(accountId),
    blockedBy: blockedBy.has(accountId),
    mute: activeMute(muting.get(accountId), now),
    domainBlocking: domainBlocked.has(accountId),
    endorsed: endorsed.has(accountId),
    note: notes.get(accountId)?.comment ?? "",
  }));
}

export async function loadRelationship(
  ctx: ServiceContext,
  viewerId: string,
  accountId: string,
): Promise<RelationshipView> {
  const [view] = await loadRelationships(ctx, viewerId, [accountId]);
  return view as RelationshipView;
}
