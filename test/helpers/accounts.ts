// Test accounts and tokens made directly through the services of a running test server, so HTTP
// tests start from a signed-in user without walking the OAuth flow every time.

import type { Account } from "../../src/domain/account.ts";
import type { OAuthApp } from "../../src/domain/oauth.ts";
import type { Role, User } from "../../src/domain/user.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { registerApp } from "../../src/services/oauth/register-app.ts";
import type { TestServer } from "./server.ts";

export const TEST_PASSWORD = "correct horse battery staple";
const ALL_APP_SCOPES = "read write follow push profile";

export interface TestUser {
  account: Account;
  user: User;
  app: OAuthApp;
  /** The bearer token (plain secret). */
  token: string;
}

/** Registers an app with every ordinary scope (a client such as Ivory or Elk). */
export async function createTestApp(server: TestServer, name = "Test Client"): Promise<OAuthApp> {
  const { app } = await registerApp(server.wren.ctx, {
    clientName: name,
    redirectUris: "urn:ietf:wg:oauth:2.0:oob",
    scopes: ALL_APP_SCOPES,
  });
  return app;
}

export interface TestUserOptions {
  role?: Role;
  /** Default: the lower-cased username at mail.example. */
  email?: string;
  /** Default: TEST_PASSWORD. */
  password?: string;
}

/** A local user who can sign in, without any token. */
export async function createTestUser(
  server: TestServer,
  username: string,
  options: TestUserOptions = {},
): Promise<{ account: Account; user: User }> {
  return createLocalAccount(server.wren.ctx, {
    username,
    email: options.email ?? `${username.toLowerCase()}@mail.example`,
    password: options.password ?? TEST_PASSWORD,
    allowReserved: true,
    ...(options.role ? { role: options.role } : {}),
  });
}

/** A local user with a token holding `scopes` (default: read write follow). */
export async function createUserWithToken(
  server: TestServer,
  username: string,
  scopes: readonly string[] = ["read", "write", "follow"],
  options: TestUserOptions = {},
): Promise<TestUser> {
  const ctx = server.wren.ctx;
  const { account, user } = await createTestUser(server, username, options);
  const app = await createTestApp(server);
  const { secret } = await issueAccessToken(ctx, {
    app,
    accountId: account.id,
    scopes,
    withRefreshToken: false,
  });
  return { account, user, app, token: secret };
}

/** One user with a token (read write follow) per name, made in the order given. */
export async function createUsers<const N extends readonly string[]>(
  server: TestServer,
  ...usernames: N
): Promise<{ -readonly [K in keyof N]: TestUser }> {
  const users: TestUser[] = [];
  for (const username of usernames) users.push(await createUserWithToken(server, username));
  return users as { -readonly [K in keyof N]: TestUser };
}

/** A token for the app alone (client_credentials), e.g. for sign-up. */
export async function createAppToken(
  server: TestServer,
  scopes: readonly string[] = ["read", "write"],
): Promise<{ app: OAuthApp; token: string }> {
  const app = await createTestApp(server);
  const { secret } = await issueAccessToken(server.wren.ctx, {
    app,
    accountId: null,
    scopes,
    withRefreshToken: false,
  });
  return { app, token: secret };
}
