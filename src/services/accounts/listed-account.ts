// A local account whose sign-up is still pending (waiting for approval, or for its address to be
// confirmed) does not exist to anyone else yet, as on Mastodon (check_account_approval and
// check_account_confirmation): its profile, actor, WebFinger and API entity answer 404. Nor, for
// listings, search and the web profile, does a suspended account, local or remote (a local one's
// actor stays served, flagged, until its data is deleted: findServedLocalActor). The client API's account entity is the exception
// (`shownAccount`): as Mastodon's, it answers a suspended account with `suspended: true` and its
// profile emptied (serialization/mastodon/account.ts), so apps can say what happened to it.

import { type Account, isLocallySuspended } from "../../domain/account.ts";
import { isApproved, isConfirmed, type User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";

/** Whether the sign-up of this local user is complete (approved and confirmed). */
export const signedUp = (user: User | undefined): boolean =>
  user === undefined || (isApproved(user) && isConfirmed(user));

/** The account unless it is suspended or a local one whose sign-up is not complete. */
export async function listedAccount(
  ctx: ServiceContext,
  account: Account | undefined,
): Promise<Account | undefined> {
  if (!account || account.suspended) return undefined;
  if (account.domain !== null) return account;
  const user = await ctx.storage.users.get(account.id);
  if (!signedUp(user)) return undefined;
  return account;
}

/** The account as the client API shows it by id or acct: suspended ones too (see the header). */
export async function shownAccount(
  ctx: ServiceContext,
  account: Account | undefined,
): Promise<Account | undefined> {
  if (!account || account.domain !== null) return account;
  return signedUp(await ctx.storage.users.get(account.id)) ? account : undefined;
}

/** shownAccount for many accounts at once, in order. */
export async function shownAccounts(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<Account[]> {
  const users = await usersOf(ctx, accounts);
  return accounts.filter((a) => a.domain !== null || signedUp(users.get(a.id)));
}

async function usersOf(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<Map<string, User>> {
  const localIds = accounts.filter((a) => a.domain === null).map((a) => a.id);
  return localIds.length > 0 ? ctx.storage.users.getMany(localIds) : new Map();
}

/** listedAccount for many accounts at once, in order (one read of the local ones' users). */
export async function listedAccounts(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<Account[]> {
  const users = await usersOf(ctx, accounts);
  return accounts.filter((a) => !a.suspended && (a.domain !== null || signedUp(users.get(a.id))));
}

/** The ids of the local accounts whose sign-up is not complete (few: kept out of listings). */
export async function unlistedSignUpIds(ctx: ServiceContext): Promise<string[]> {
  return (await ctx.storage.users.list()).filter((u) => !signedUp(u)).map((u) => u.accountId);
}

/** The local account of that name, as the public may see it. */
export async function findListedLocalAccount(
  ctx: ServiceContext,
  username: string,
): Promise<Account | undefined> {
  return listedAccount(ctx, await ctx.storage.accounts.findByUsername(username, null));
}

/**
 * The local account of that name whose actor and WebFinger answer: a listed one, or one our
 * moderators suspended whose data is not yet deleted (served flagged, as Mastodon serves an
 * account until it is permanently unavailable; the actor then answers 410: federation/objects.ts).
 */
export async function findServedLocalActor(
  ctx: ServiceContext,
  username: string,
): Promise<Account | undefined> {
  const account = await ctx.storage.accounts.findByUsername(username, null);
  if (!account || (account.suspended && !isLocallySuspended(account))) return undefined;
  return signedUp(await ctx.storage.users.get(account.id)) ? account : undefined;
}
