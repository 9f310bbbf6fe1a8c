// Makes an access token (and optionally a refresh token) for an app, acting for an account or,
// with accountId null, for the app alone. Only hashes are stored; the secrets are returned once.

import type { AccessToken, OAuthApp } from "../../domain/oauth.ts";
import { hashSecret, newSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";

export interface IssueAccessTokenInput {
  app: OAuthApp;
  accountId: string | null;
  scopes: readonly string[];
  withRefreshToken: boolean;
}

export interface IssuedToken {
  token: AccessToken;
  secret: string;
  refreshSecret: string | null;
}

export async function issueAccessToken(
  ctx: ServiceContext,
  input: IssueAccessTokenInput,
): Promise<IssuedToken> {
  const secret = newSecret();
  const refreshSecret = input.withRefreshToken ? newSecret() : null;
  const token: AccessToken = {
    id: ctx.ids.next(),
    tokenHash: hashSecret(secret),
    refreshTokenHash: refreshSecret === null ? null : hashSecret(refreshSecret),
    appId: input.app.id,
    accountId: input.accountId,
    scopes: [...input.scopes],
    createdAt: ctx.clock.now().toISOString(),
    revokedAt: null,
  };
  await ctx.storage.tokens.put(token);
  return { token, secret, refreshSecret };
}
