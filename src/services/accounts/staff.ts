// The staff: the local users who moderate (admins and moderators, Mastodon's holders of the
// manage_users permission), told about every sign-up.

import type { ServiceContext } from "../context.ts";

export async function staffIds(ctx: ServiceContext): Promise<string[]> {
  const users = await ctx.storage.users.list();
  return users
    .filter((u) => (u.role === "admin" || u.role === "moderator") && !u.disabled)
    .map((u) => u.accountId);
}
