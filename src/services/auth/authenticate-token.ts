import type { Account } from "../../domain/account.ts";
import type { AccessToken, OAuthApp } from "../../domain/oauth.ts";
import type { User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { hashSecret } from "./secrets.ts";

export interface Authenticated {
  token: AccessToken;
  app: OAuthApp;
  account: Account | null;
  user: User | null;
}

/**
 * Resolves a bearer token to who holds it. Unknown, revoked, or orphaned tokens, and tokens of
 * disabled users, resolve to null (the caller answers 401).
 */
export async function authenticateToken(
  ctx: ServiceContext,
  bearer: string,
): Promise<Authenticated | null> {
  const token = await ctx.storage.tokens.findByTokenHash(hashSecret(bearer));
  if (!token || token.revokedAt !== null) return null;
  const app = await ctx.storage.apps.get(token.appId);
  if (!app) return null;
  if (token.accountId === null) return { token, app, account: null, user: null };
  const [account, user] = await Promise.all([
    ctx.storage.accounts.get(token.accountId),
    ctx.storage.users.get(token.accountId),
  ]);
  if (!account || !user || user.disabled) return null;
  return { token, app, account, user };
}
