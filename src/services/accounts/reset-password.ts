// Setting a new password: by the operator (`wren account reset-password`) or by the user with
// the link of a reset mail (/auth/password/edit). Either way the user is signed out everywhere:
// every access token they hold is revoked, and every browser session ends.

import type { Account } from "../../domain/account.ts";
import { notFound } from "../../domain/errors.ts";
import type { User } from "../../domain/user.ts";
import { hashPassword } from "../auth/passwords.ts";
import { endWebSessionsOf } from "../auth/web-sessions.ts";
import type { ServiceContext } from "../context.ts";
import { unsubscribeFromPush } from "../push/subscriptions.ts";
import { signalStreams } from "../streaming/signal.ts";
import { validatePassword } from "./create-local-account.ts";
import { startValidation } from "./validation.ts";

/** Validates and stores the new password, then revokes the user's tokens. */
export async function setPassword(
  ctx: ServiceContext,
  account: Account,
  user: User,
  password: string,
): Promise<{ revokedTokens: number }> {
  const validation = startValidation();
  validatePassword(validation, password);
  validation.check();

  await ctx.storage.users.put({
    ...user,
    passwordHash: await hashPassword(password, ctx.settings.passwordHashCost),
  });
  const now = ctx.clock.now().toISOString();
  const live = (await ctx.storage.tokens.listByAccount(account.id)).filter(
    (t) => t.revokedAt === null,
  );
  for (const token of live) {
    await ctx.storage.tokens.put({ ...token, revokedAt: now });
    await unsubscribeFromPush(ctx, token.id);
    await signalStreams(ctx, { kind: "token_revoked", tokenId: token.id });
  }
  await endWebSessionsOf(ctx, account.id);
  return { revokedTokens: live.length };
}

export async function resetPassword(
  ctx: ServiceContext,
  input: { username: string; password: string },
): Promise<{ revokedTokens: number }> {
  const username = input.username.trim().replace(/^@/, "");
  const account = await ctx.storage.accounts.findByUsername(username, null);
  const user = account ? await ctx.storage.users.get(account.id) : undefined;
  if (!account || !user) throw notFound(`No local account named ${username}`);
  return setPassword(ctx, account, user, input.password);
}
