// The password grant (RFC 6749 §4.3), which Mastodon keeps enabled and command-line clients use
// (toot's `login_cli`, Mastodon.py's `log_in`): the client sends the person's login and password
// and gets a user token. Only an authenticated client may use it, so a stolen client id alone
// cannot turn the token endpoint into a password oracle; throttling (per address and per
// account, shared with the sign-in page) is the HTTP layer's.

import { parseScopes, scopesWithin, unknownScopes } from "../../domain/scopes.ts";
import { authenticatePassword } from "../auth/authenticate-password.ts";
import type { ServiceContext } from "../context.ts";
import { authenticateClient, type ClientCredentials } from "./authenticate-client.ts";
import { invalidClient, invalidScope, missingParameter, oauthError } from "./errors.ts";
import { type IssuedToken, issueAccessToken } from "./issue-access-token.ts";

export interface PasswordGrantRequest extends ClientCredentials {
  username?: string | undefined;
  password?: string | undefined;
  scope?: string | undefined;
}

const SIGN_IN_FAILED = "Invalid email or password.";

export async function passwordGrant(
  ctx: ServiceContext,
  request: PasswordGrantRequest,
): Promise<IssuedToken> {
  const app = await authenticateClient(ctx, request);
  if (!app) throw invalidClient();
  if (!request.username?.trim()) throw missingParameter("username");
  if (!request.password) throw missingParameter("password");
  // Scopes are checked before the password, so a bad request costs no password check.
  const scopes = parseScopes(request.scope);
  if (unknownScopes(scopes).length > 0 || !scopesWithin(scopes, app.scopes)) throw invalidScope();

  const signedIn = await authenticatePassword(ctx, {
    login: request.username,
    password: request.password,
  });
  if (!signedIn) throw oauthError(400, "invalid_grant", SIGN_IN_FAILED);
  return issueAccessToken(ctx, {
    app,
    accountId: signedIn.account.id,
    scopes,
    withRefreshToken: true,
  });
}
