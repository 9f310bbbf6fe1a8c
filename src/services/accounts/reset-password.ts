// `wren account reset-password`: sets a new password for a local user and signs them out
// everywhere by revoking every access token they hold.

import { notFound } from "../../domain/errors.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { ServiceContext } from "../context.ts";
import { signalStreams } from "../streaming/signal.ts";
import { validatePassword } from "./create-local-account.ts";
import { startValidation } from "./validation.ts";

export async function resetPassword(
  ctx: ServiceContext,
  input: { username: string; password: string },
): Promise<{ revokedTokens: number }> {
  const username = input.username.trim().replace(/^@/, "");
  const account = await ctx.storage.accounts.findByUsername(username, null);
  const user = account ? await ctx.storage.users.get(account.id) : undefined;
  if (!account || !user) throw notFound(`No local account named ${username}`);

  const validation = startValidation();
  validatePassword(validation, input.password);
  validation.check();

  await ctx.storage.users.put({ ...user, passwordHash: await hashPassword(input.password) });
  const now = ctx.clock.now().toISOString();
  const live = (await ctx.storage.tokens.listByAccount(account.id)).filter(
    (t) => t.revokedAt === null,
  );
  for (const token of live) {
    await ctx.storage.tokens.put({ ...token, revokedAt: now });
    await signalStreams(ctx, { kind: "token_revoked", tokenId: token.id });
  }
  return { revokedTokens: live.length };
}
