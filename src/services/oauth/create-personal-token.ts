// `wren token create`: a token for a local account without the browser flow. Tokens belong to a
// built-in app found again by its fixed client id; its client secret is random and thrown away,
// so nobody can use that app at the token endpoint.

import { notFound, unprocessable } from "../../domain/errors.ts";
import type { OAuthApp } from "../../domain/oauth.ts";
import { DEFAULT_SCOPES, unknownScopes } from "../../domain/scopes.ts";
import { hashSecret, newSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";
import { issueAccessToken } from "./issue-access-token.ts";
import { OOB_URI } from "./redirect-uris.ts";

export const CLI_APP_CLIENT_ID = "wren-cli";
export const CLI_APP_NAME = "Wren CLI";
const CLI_APP_SCOPES = ["read", "write", "follow", "push", "profile", "admin:read", "admin:write"];

async function cliApp(ctx: ServiceContext): Promise<OAuthApp> {
  const existing = await ctx.storage.apps.findByClientId(CLI_APP_CLIENT_ID);
  if (existing) return existing;
  const app: OAuthApp = {
    id: ctx.ids.next(),
    name: CLI_APP_NAME,
    website: null,
    redirectUris: [OOB_URI],
    scopes: CLI_APP_SCOPES,
    clientId: CLI_APP_CLIENT_ID,
    clientSecretHash: hashSecret(newSecret()),
    createdAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.apps.put(app);
  return app;
}

export async function createPersonalToken(
  ctx: ServiceContext,
  input: { username: string; scopes: readonly string[] },
): Promise<{ secret: string }> {
  const username = input.username.trim().replace(/^@/, "");
  const account = await ctx.storage.accounts.findByUsername(username, null);
  const user = account ? await ctx.storage.users.get(account.id) : undefined;
  if (!account || !user) throw notFound(`No local account named ${username}`);

  const scopes = input.scopes.length > 0 ? [...new Set(input.scopes)] : [...DEFAULT_SCOPES];
  const unknown = unknownScopes(scopes);
  if (unknown.length > 0) {
    throw unprocessable(`Validation failed: Unknown scopes: ${unknown.join(", ")}`);
  }
  const app = await cliApp(ctx);
  const { secret } = await issueAccessToken(ctx, {
    app,
    accountId: account.id,
    scopes,
    withRefreshToken: false,
  });
  return { secret };
}
