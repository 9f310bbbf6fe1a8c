// POST /oauth/token: trades a grant for an access token. The grants of Mastodon's Doorkeeper
// setup: authorization_code (with or without PKCE), password (see password-grant.ts) and
// client_credentials (a token for the app alone); plus refresh_token (rotating: the old pair
// stops working when the new one is issued). Failures are OAuth error bodies.
//
// Every app is issued a client secret, so every app is a confidential client (RFC 6749 §2.1).
// The one exception allowed is a code exchange proven by its PKCE verifier alone, for clients
// that cannot keep a secret; that exchange gets no refresh token, since refreshing requires the
// client to authenticate (RFC 6749 §6) and a refresh token without that proof is a bearer key.

import type { OAuthApp } from "../../domain/oauth.ts";
import { parseScopes, scopesWithin, unknownScopes } from "../../domain/scopes.ts";
import { hashSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";
import { moveToRefreshedToken } from "../push/subscriptions.ts";
import { authenticateClient, type ClientCredentials } from "./authenticate-client.ts";
import {
  invalidClient,
  invalidGrant,
  invalidScope,
  missingParameter,
  oauthError,
} from "./errors.ts";
import { type IssuedToken, issueAccessToken } from "./issue-access-token.ts";
import { passwordGrant } from "./password-grant.ts";
import { verifierMatches } from "./pkce.ts";

export interface TokenRequest extends ClientCredentials {
  grantType?: string | undefined;
  code?: string | undefined;
  redirectUri?: string | undefined;
  codeVerifier?: string | undefined;
  refreshToken?: string | undefined;
  scope?: string | undefined;
  /** The password grant's login (email address or username) and password. */
  username?: string | undefined;
  password?: string | undefined;
}

export async function exchangeToken(
  ctx: ServiceContext,
  request: TokenRequest,
): Promise<IssuedToken> {
  switch (request.grantType) {
    case undefined:
    case "":
      throw missingParameter("grant_type");
    case "authorization_code":
      return authorizationCodeGrant(ctx, request);
    case "password":
      return passwordGrant(ctx, request);
    case "client_credentials":
      return clientCredentialsGrant(ctx, request);
    case "refresh_token":
      return refreshTokenGrant(ctx, request);
    default:
      throw oauthError(400, "unsupported_grant_type");
  }
}

/**
 * For the code exchange: a client proves itself with its secret. Without a secret the client
 * only names itself, and the PKCE verifier must prove the request.
 */
async function identifyClient(
  ctx: ServiceContext,
  request: TokenRequest,
): Promise<{ app: OAuthApp; authenticated: boolean }> {
  if (request.clientSecret) {
    const app = await authenticateClient(ctx, request);
    if (!app) throw invalidClient();
    return { app, authenticated: true };
  }
  const app = request.clientId
    ? await ctx.storage.apps.findByClientId(request.clientId)
    : undefined;
  if (!app) throw invalidClient();
  return { app, authenticated: false };
}

/** The account a user token acts for must still be able to sign in. */
async function accountUsable(ctx: ServiceContext, accountId: string): Promise<boolean> {
  const [account, user] = await Promise.all([
    ctx.storage.accounts.get(accountId),
    ctx.storage.users.get(accountId),
  ]);
  return account !== undefined && user !== undefined && !user.disabled;
}

async function authorizationCodeGrant(ctx: ServiceContext, request: TokenRequest) {
  if (!request.code) throw missingParameter("code");
  if (!request.redirectUri) throw missingParameter("redirect_uri");
  const { app, authenticated } = await identifyClient(ctx, request);
  if (!authenticated && !request.codeVerifier) throw invalidClient();

  // Taken (removed) before any further check: a code is spent by its first use, right or wrong,
  // so a stolen code cannot be tried against several verifiers.
  const code = await ctx.storage.authorizationCodes.take(hashSecret(request.code));
  if (!code) throw invalidGrant();
  if (code.appId !== app.id) throw invalidGrant();
  if (Date.parse(code.expiresAt) <= ctx.clock.now().getTime()) throw invalidGrant();
  if (code.redirectUri !== request.redirectUri) throw invalidGrant();
  if (code.codeChallenge !== null) {
    if (code.codeChallengeMethod !== "S256" || !request.codeVerifier) throw invalidGrant();
    if (!verifierMatches(request.codeVerifier, code.codeChallenge)) throw invalidGrant();
  } else if (request.codeVerifier || !authenticated) {
    // A verifier for a code issued without a challenge is a confused or forged request.
    throw invalidGrant();
  }
  if (!(await accountUsable(ctx, code.accountId))) throw invalidGrant();

  return issueAccessToken(ctx, {
    app,
    accountId: code.accountId,
    scopes: code.scopes,
    withRefreshToken: authenticated,
  });
}

async function clientCredentialsGrant(ctx: ServiceContext, request: TokenRequest) {
  const app = await authenticateClient(ctx, request);
  if (!app) throw invalidClient();
  const scopes = parseScopes(request.scope);
  if (unknownScopes(scopes).length > 0 || !scopesWithin(scopes, app.scopes)) throw invalidScope();
  return issueAccessToken(ctx, { app, accountId: null, scopes, withRefreshToken: false });
}

async function refreshTokenGrant(ctx: ServiceContext, request: TokenRequest) {
  if (!request.refreshToken) throw missingParameter("refresh_token");
  // The client must authenticate: the refresh token alone does not prove who presents it.
  const app = await authenticateClient(ctx, request);
  if (!app) throw invalidClient();
  const old = await ctx.storage.tokens.findByRefreshTokenHash(hashSecret(request.refreshToken));
  if (!old || old.revokedAt !== null || old.appId !== app.id) throw invalidGrant();

  // A refresh may narrow the grant, never widen it.
  const scopes = request.scope ? parseScopes(request.scope) : old.scopes;
  if (unknownScopes(scopes).length > 0 || !scopesWithin(scopes, old.scopes)) throw invalidScope();
  if (old.accountId !== null && !(await accountUsable(ctx, old.accountId))) throw invalidGrant();

  await ctx.storage.tokens.put({ ...old, revokedAt: ctx.clock.now().toISOString() });
  const issued = await issueAccessToken(ctx, {
    app,
    accountId: old.accountId,
    scopes,
    withRefreshToken: true,
  });
  await moveToRefreshedToken(ctx, old.id, issued);
  return issued;
}
