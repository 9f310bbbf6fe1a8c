// A local account whose sign-up is still pending (waiting for approval, or for its address to be
// confirmed) does not exist to anyone else yet, as on Mastodon (check_account_approval and
// check_account_confirmation): its profile, actor, WebFinger and API entity answer 404.

import type { Account } from "../../domain/account.ts";
import { isApproved, isConfirmed } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";

/** The account unless it is a local one whose sign-up is not complete. */
export async function listedAccount(
  ctx: ServiceContext,
  account: Account | undefined,
): Promise<Account | undefined> {
  if (!account || account.domain !== null) return account;
  const user = await ctx.storage.users.get(account.id);
  if (user && (!isApproved(user) || !isConfirmed(user))) return undefined;
  return account;
}

/** The local account of that name, as the public may see it. */
export async function findListedLocalAccount(
  ctx: ServiceContext,
  username: string,
): Promise<Account | undefined> {
  return listedAccount(ctx, await ctx.storage.accounts.findByUsername(username, null));
}
