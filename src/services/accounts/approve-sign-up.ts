// The moderation of sign-ups waiting for approval (`wren account approve|reject`, later the
// admin API): approving lets the account in; rejecting deletes it, as Mastodon does, with its
// tokens and the staff's `admin.sign_up` notifications about it. Only a pending account can be
// rejected: nothing else refers to it yet (it could not post, follow or be followed).

import type { Account } from "../../domain/account.ts";
import { AppError, notFound } from "../../domain/errors.ts";
import { isApproved, type User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { withdraw } from "../notifications/notify.ts";
import { staffIds } from "./staff.ts";

async function pendingSignUp(
  ctx: ServiceContext,
  username: string,
): Promise<{ account: Account; user: User }> {
  const name = username.trim().replace(/^@/, "");
  const account = await ctx.storage.accounts.findByUsername(name, null);
  const user = account ? await ctx.storage.users.get(account.id) : undefined;
  if (!account || !user) throw notFound(`No local account named ${name}`);
  return { account, user };
}

/** Approves a pending sign-up; false when it was approved already. */
export async function approveSignUp(ctx: ServiceContext, username: string): Promise<boolean> {
  const { user } = await pendingSignUp(ctx, username);
  if (isApproved(user)) return false;
  await ctx.storage.users.put({ ...user, approved: true });
  return true;
}

/** Deletes a pending sign-up. */
export async function rejectSignUp(ctx: ServiceContext, username: string): Promise<void> {
  const { account, user } = await pendingSignUp(ctx, username);
  if (isApproved(user)) {
    throw new AppError(409, `${account.username} is not waiting for approval`);
  }
  const now = ctx.clock.now().toISOString();
  for (const token of await ctx.storage.tokens.listByAccount(account.id)) {
    if (token.revokedAt === null) await ctx.storage.tokens.put({ ...token, revokedAt: now });
  }
  for (const staffId of await staffIds(ctx)) {
    await withdraw(ctx, staffId, "admin.sign_up", account.id, null);
  }
  // The user first: without it the account can never sign in, even if the second removal fails.
  await ctx.storage.users.remove(account.id);
  await ctx.storage.accounts.remove(account.id);
}
