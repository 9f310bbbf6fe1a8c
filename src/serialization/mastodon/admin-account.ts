// AdminAccountView → Mastodon's Admin::Account entity. A remote account has no user: its email,
// locale and role are null and its user flags false, as Mastodon's serializer answers. Wren
// keeps no sign-in addresses, so `ip` is null and `ips` empty. Pure.

import { isSensitized, isSilenced } from "../../domain/account.ts";
import { isApproved, isConfirmed } from "../../domain/user.ts";
import type { AdminAccountView } from "../../views/admin-account-view.ts";
import { type AccountJson, serializeAccount, type UrlContext } from "./account.ts";
import { type RoleJson, serializeRole } from "./role.ts";

export interface AdminAccountJson {
  id: string;
  username: string;
  domain: string | null;
  created_at: string;
  email: string | null;
  ip: string | null;
  ips: { ip: string; used_at: string }[];
  role: RoleJson | null;
  confirmed: boolean;
  suspended: boolean;
  silenced: boolean;
  sensitized: boolean;
  disabled: boolean;
  approved: boolean;
  locale: string | null;
  invite_request: string | null;
  created_by_application_id?: string;
  account: AccountJson;
}

export function serializeAdminAccount(
  { view, user }: AdminAccountView,
  urls: UrlContext,
): AdminAccountJson {
  const { account } = view;
  return {
    id: account.id,
    username: account.username,
    domain: account.domain,
    created_at: account.createdAt,
    email: user?.email ?? null,
    ip: null,
    ips: [],
    role: user ? serializeRole(user.role) : null,
    confirmed: user ? isConfirmed(user) : false,
    suspended: account.suspended === true,
    silenced: isSilenced(account),
    sensitized: isSensitized(account),
    disabled: user?.disabled ?? false,
    approved: user ? isApproved(user) : false,
    locale: user?.locale ?? null,
    invite_request: user?.signUpReason ?? null,
    ...(user?.createdByAppId ? { created_by_application_id: user.createdByAppId } : {}),
    account: serializeAccount(view, urls),
  };
}
