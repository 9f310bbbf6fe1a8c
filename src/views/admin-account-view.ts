// The moderators' view of accounts (the admin API's Admin::Account): the public account view
// with, for a local account, its user record (email, role, sign-up state). Built for a batch.

import type { Account } from "../domain/account.ts";
import type { User } from "../domain/user.ts";
import type { ServiceContext } from "../services/context.ts";
import { type AccountView, loadAccountViews } from "./account-view.ts";

export interface AdminAccountView {
  view: AccountView;
  /** The local account's user; undefined for remote accounts. */
  user: User | undefined;
}

export async function loadAdminAccountViews(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<AdminAccountView[]> {
  const localIds = accounts.filter((a) => a.domain === null).map((a) => a.id);
  const [views, users] = await Promise.all([
    loadAccountViews(ctx, accounts),
    localIds.length > 0 ? ctx.storage.users.getMany(localIds) : new Map<string, User>(),
  ]);
  return views.map((view) => ({ view, user: users.get(view.account.id) }));
}

/** The same for accounts whose users are already in hand (a user may be gone: a rejection). */
export async function adminViewsOf(
  ctx: ServiceContext,
  targets: readonly { account: Account; user: User | undefined }[],
): Promise<AdminAccountView[]> {
  const views = await loadAccountViews(
    ctx,
    targets.map((t) => t.account),
  );
  return views.map((view, i) => ({ view, user: targets[i]?.user }));
}
