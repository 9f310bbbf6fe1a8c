// The read side of accounts: an account with the counters clients show next to it, built for
// many accounts at once (timelines hydrate dozens per request). Serializers turn these views
// into Mastodon JSON (serialization/mastodon/account.ts) or ActivityPub actors.

import type { Account } from "../domain/account.ts";
import type { Role, User } from "../domain/user.ts";
import type { ServiceContext } from "../services/context.ts";

export interface AccountView {
  account: Account;
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  /** When the newest status was posted (ISO date-time), or null without statuses. */
  lastStatusAt: string | null;
  /** The role of a local account's user (shown as a badge when highlighted); null for remote. */
  role: Role | null;
}

/** The signed-in owner's own account: the view plus the private parts (`source`, `role`). */
export interface CredentialAccountView extends AccountView {
  user: User;
  followRequestsCount: number;
}

interface FollowCounts {
  followers: number;
  following: number;
  pendingRequests: number;
}

/**
 * Seam for the social graph: the follow work replaces this with batched counts from its store.
 * Until follows exist every count is zero, which is the truth.
 */
async function followCounts(
  _ctx: ServiceContext,
  accountIds: readonly string[],
): Promise<Map<string, FollowCounts>> {
  return new Map(accountIds.map((id) => [id, { followers: 0, following: 0, pendingRequests: 0 }]));
}

async function statusFacts(
  ctx: ServiceContext,
  accountId: string,
): Promise<{ count: number; lastAt: string | null }> {
  const [count, newest] = await Promise.all([
    ctx.storage.statuses.countByAccount(accountId),
    ctx.storage.statuses.listByAccount(accountId, { limit: 1 }),
  ]);
  return { count, lastAt: newest[0]?.createdAt ?? null };
}

export async function loadAccountViews(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<AccountView[]> {
  const ids = [...new Set(accounts.map((a) => a.id))];
  const localIds = [...new Set(accounts.filter((a) => a.domain === null).map((a) => a.id))];
  const [follows, facts, users] = await Promise.all([
    followCounts(ctx, ids),
    Promise.all(ids.map(async (id) => [id, await statusFacts(ctx, id)] as const)),
    Promise.all(localIds.map(async (id) => [id, await ctx.storage.users.get(id)] as const)),
  ]);
  const factsById = new Map(facts);
  const roles = new Map(users.map(([id, user]) => [id, user?.role ?? null]));
  return accounts.map((account) => {
    const f = follows.get(account.id);
    const s = factsById.get(account.id);
    return {
      account,
      statusesCount: s?.count ?? 0,
      followersCount: f?.followers ?? 0,
      followingCount: f?.following ?? 0,
      lastStatusAt: s?.lastAt ?? null,
      role: roles.get(account.id) ?? null,
    };
  });
}

export async function loadAccountView(ctx: ServiceContext, account: Account): Promise<AccountView> {
  const [view] = await loadAccountViews(ctx, [account]);
  return view as AccountView;
}

export async function loadCredentialAccountView(
  ctx: ServiceContext,
  account: Account,
  user: User,
): Promise<CredentialAccountView> {
  const [view, follows] = await Promise.all([
    loadAccountView(ctx, account),
    followCounts(ctx, [account.id]),
  ]);
  return { ...view, user, followRequestsCount: follows.get(account.id)?.pendingRequests ?? 0 };
}
