// The consent step's result: a short-lived, single-use code bound to the app, the account, the
// scopes, the redirect URI and the PKCE challenge. Only its hash is stored.

import type { AuthorizationCode, OAuthApp } from "../../domain/oauth.ts";
import { hashSecret, newSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";
import type { CodeChallengeMethod } from "./pkce.ts";

export const AUTHORIZATION_CODE_LIFETIME_MS = 10 * 60 * 1000;

export interface CreateAuthorizationCodeInput {
  app: OAuthApp;
  accountId: string;
  scopes: readonly string[];
  redirectUri: string;
  codeChallenge: string | null;
  codeChallengeMethod: CodeChallengeMethod | null;
}

export async function createAuthorizationCode(
  ctx: ServiceContext,
  input: CreateAuthorizationCodeInput,
): Promise<{ code: string }> {
  const code = newSecret();
  const now = ctx.clock.now();
  const record: AuthorizationCode = {
    codeHash: hashSecret(code),
    appId: input.app.id,
    accountId: input.accountId,
    scopes: [...input.scopes],
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge,
    codeChallengeMethod: input.codeChallenge === null ? null : input.codeChallengeMethod,
    expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_MS).toISOString(),
    createdAt: now.toISOString(),
  };
  await ctx.storage.authorizationCodes.put(record);
  return { code };
}
