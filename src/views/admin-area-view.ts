// What the admin area's pages read (http/admin/): the dashboard's counts and the local accounts
// with their users, pending sign-ups first. A small community has few users, so the user list
// is read whole, as `wren account pending` does.

import type { Account } from "../domain/account.ts";
import { isApproved, type User } from "../domain/user.ts";
import type { ServiceContext } from "../services/context.ts";

/** Open reports are counted up to this many; the dashboard shows "100+" past it. */
export const OPEN_REPORTS_COUNTED = 100;

export interface StaffDashboard {
  pendingSignUps: number;
  openReports: number;
  /** More open reports than OPEN_REPORTS_COUNTED. */
  openReportsMore: boolean;
}

export async function staffDashboard(ctx: ServiceContext): Promise<StaffDashboard> {
  const [users, open] = await Promise.all([
    ctx.storage.users.list(),
    ctx.storage.reports.list({ limit: OPEN_REPORTS_COUNTED + 1 }, { resolved: false }),
  ]);
  return {
    pendingSignUps: users.filter((u) => !isApproved(u)).length,
    openReports: Math.min(open.length, OPEN_REPORTS_COUNTED),
    openReportsMore: open.length > OPEN_REPORTS_COUNTED,
  };
}

export interface LocalAccountEntry {
  account: Account;
  user: User;
}

/** Every local account with its user: pending sign-ups first (oldest first), then by name. */
export async function localAccountsForStaff(ctx: ServiceContext): Promise<LocalAccountEntry[]> {
  const users = await ctx.storage.users.list();
  const accounts = await ctx.storage.accounts.getMany(users.map((u) => u.accountId));
  const entries = users.flatMap((user): LocalAccountEntry[] => {
    const account = accounts.get(user.accountId);
    return account ? [{ account, user }] : [];
  });
  const rank = (e: LocalAccountEntry) => (isApproved(e.user) ? 1 : 0);
  return entries.sort((a, b) => {
    if (rank(a) !== rank(b)) return rank(a) - rank(b);
    return isApproved(a.user)
      ? a.account.username.localeCompare(b.account.username)
      : a.user.createdAt.localeCompare(b.user.createdAt);
  });
}
