// The admin API's account list (Mastodon's AccountFilter behind GET /api/v1 and /api/v2
// /admin/accounts): every account, local and remote, newest first, narrowed by origin, state,
// role, inviter and text matches. The store pages by origin and domain; the rest is checked per
// batch (fill-page.ts), reading the users of a batch's local accounts at once. Text matches are
// prefixes, case-insensitive, as Mastodon's (`username`, `display_name`, `email`). Wren keeps no
// sign-in addresses, so an `ip` filter matches nobody.

import type { Account } from "../../domain/account.ts";
import { isApproved, isConfirmed, type Role, type User } from "../../domain/user.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { listInvites } from "./invites.ts";
import type { Target } from "./moderate-account.ts";

export const ACCOUNT_STATES = [
  "active",
  "pending",
  "disabled",
  "silenced",
  "suspended",
  "sensitized",
] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

export interface AdminAccountFilter {
  origin?: "local" | "remote" | undefined;
  status?: AccountState | undefined;
  /** Only local users holding one of these roles. */
  roles?: readonly Role[] | undefined;
  /** Only local users who signed up with an invite of this account. */
  invitedBy?: string | undefined;
  username?: string | undefined;
  displayName?: string | undefined;
  byDomain?: string | undefined;
  email?: string | undefined;
  ip?: string | undefined;
}

export interface AdminAccountPage {
  targets: Target[];
  newestId: string | undefined;
  oldestId: string | undefined;
}

const startsWith = (text: string, prefix: string) =>
  text.toLowerCase().startsWith(prefix.trim().toLowerCase());

function inState(state: AccountState, account: Account, user: User | undefined): boolean {
  switch (state) {
    case "active":
      return !account.suspended && (!user || (isApproved(user) && isConfirmed(user)));
    case "pending":
      return user !== undefined && !isApproved(user);
    case "disabled":
      return user?.disabled === true && !account.suspended;
    case "silenced":
      return account.silencedAt !== undefined;
    case "suspended":
      return account.suspended === true;
    case "sensitized":
      return account.sensitizedAt !== undefined;
  }
}

export async function listAdminAccounts(
  ctx: ServiceContext,
  filter: AdminAccountFilter,
  page: IdPage,
): Promise<AdminAccountPage> {
  const needsUser =
    filter.roles !== undefined || filter.invitedBy !== undefined || filter.email !== undefined;
  // Filters only local users can meet: remote accounts need not be read at all.
  const origin = needsUser || filter.status === "pending" ? "local" : filter.origin;
  if (filter.ip !== undefined || (needsUser && filter.origin === "remote")) {
    return { targets: [], newestId: undefined, oldestId: undefined };
  }
  const inviteCodes =
    filter.invitedBy === undefined
      ? undefined
      : new Set(
          (await listInvites(ctx))
            .filter((i) => i.inviterId === filter.invitedBy)
            .map((i) => i.code),
        );
  const matches = (account: Account, user: User | undefined): boolean => {
    if (account.domain === null && !user) return false;
    if (filter.status && !inState(filter.status, account, user)) return false;
    if (filter.roles && !(user && filter.roles.includes(user.role))) return false;
    if (inviteCodes && !(user?.inviteCode && inviteCodes.has(user.inviteCode))) return false;
    if (filter.username !== undefined && !startsWith(account.username, filter.username)) {
      return false;
    }
    if (filter.displayName !== undefined && !startsWith(account.displayName, filter.displayName)) {
      return false;
    }
    if (filter.email !== undefined && !(user && startsWith(user.email, filter.email))) return false;
    return true;
  };
  const filled = await fillPage(page, {
    read: (window) =>
      ctx.storage.accounts.list(
        { origin: origin ?? "all", ...(filter.byDomain ? { domain: filter.byDomain.trim() } : {}) },
        window,
      ),
    idOf: (account) => account.id,
    keep: async (batch) => {
      const localIds = batch.filter((a) => a.domain === null).map((a) => a.id);
      const users =
        localIds.length > 0 ? await ctx.storage.users.getMany(localIds) : new Map<string, User>();
      return batch.map((account) => {
        const user = users.get(account.id);
        return matches(account, user) ? { account, user } : undefined;
      });
    },
  });
  return { targets: filled.items, newestId: filled.newestId, oldestId: filled.oldestId };
}
