import type { Account } from "../../domain/account.ts";
import type { AccessToken, OAuthApp } from "../../domain/oauth.ts";
import type { User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { noteActivity } from "../metrics/activity.ts";
import { hashSecret } from "./secrets.ts";

export interface Authenticated {
  token: AccessToken;
  app: OAuthApp;
  account: Account | null;
  user: User | null;
}

/**
 * Resolves a bearer token to who holds it. Unknown, revoked, or orphaned tokens, and tokens of
 * disabled users or suspended accounts, resolve to null (the caller answers 401).
 */
export async function authenticateToken(
  ctx: ServiceContext,
  bearer: string,
): Promise<Authenticated | null> {
  // Every request with a token starts here: its app, account and user come in the same read.
  const holder = await ctx.storage.joined.tokenHolder(hashSecret(bearer));
  if (!holder) return null;
  const { token, app, account, user } = holder;
  if (token.revokedAt !== null || !app) return null;
  if (token.accountId === null) return { token, app, account: null, user: null };
  // A suspended account's tokens stay, refused until a moderator lifts the suspension.
  if (!account || !user || user.disabled || account.suspended) return null;
  // Using a token is being active that day (the admin metrics; at most one write a day).
  await noteActivity(ctx, account.id);
  return { token, app, account, user };
}
