// The staff: the local users who moderate (owners, admins and moderators, Mastodon's holders of the
// manage_users permission), told about every sign-up.

import { isStaff } from "../../domain/permissions.ts";
import type { ServiceContext } from "../context.ts";

export async function staffIds(ctx: ServiceContext): Promise<string[]> {
  const users = await ctx.storage.users.list();
  return users.filter((u) => isStaff(u.role) && !u.disabled).map((u) => u.accountId);
}
