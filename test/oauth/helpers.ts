// Shared steps of the OAuth tests: a user, a registered app, and a minimal "browser" that keeps
// cookies and reads the hidden fields of the authorize form, so the flow runs as a person's
// browser would run it.

import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { createTestUser, TEST_PASSWORD } from "../helpers/accounts.ts";
import type { TestServer } from "../helpers/server.ts";

export const PASSWORD = TEST_PASSWORD;
export const REDIRECT = "https://client.example/callback";
export const OOB = "urn:ietf:wg:oauth:2.0:oob";

/**
 * Server settings for suites that sign in many times from one address: the login throttles
 * (25 per address and per login name) would otherwise refuse them part way. throttle.test.ts
 * tests the throttles themselves.
 */
export const UNTHROTTLED_LOGINS: Record<string, string> = {
  WREN_LOGIN_RATE_LIMIT_REQUESTS: "100000",
  WREN_LOGIN_ACCOUNT_RATE_LIMIT_REQUESTS: "100000",
};

/** The JSON bodies the tests read, typed loosely enough for assertions. */
export interface AppJson {
  id: string;
  name: string;
  website: string | null;
  scopes: string[];
  redirect_uri: string;
  redirect_uris: string[];
  vapid_key: string;
  client_id?: string;
  client_secret?: string;
  client_secret_expires_at?: number;
}

export interface TokenJson {
  access_token: string;
  token_type: string;
  scope: string;
  created_at: number;
  refresh_token?: string;
}

export interface ErrorJson {
  error: string;
  error_description?: string;
}

export async function readJson<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export async function createUser(
  server: TestServer,
  username = "alice",
  password = PASSWORD,
): Promise<{ accountId: string; email: string }> {
  const { account, user } = await createTestUser(server, username, { password });
  return { accountId: account.id, email: user.email };
}

export interface RegisteredApp {
  id: string;
  client_id: string;
  client_secret: string;
  scopes: string[];
  [key: string]: unknown;
}

export async function registerApp(
  server: TestServer,
  body: Record<string, unknown> = {},
): Promise<RegisteredApp> {
  const res = await server.request("/api/v1/apps", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Test Client",
      redirect_uris: [REDIRECT, OOB],
      scopes: "read write follow push profile",
      ...body,
    }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as RegisteredApp;
}

/** The client credentials of a registered app, to spread into a token or revoke body. */
export function credentialsOf(app: RegisteredApp): { client_id: string; client_secret: string } {
  return { client_id: app.client_id, client_secret: app.client_secret };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  return { verifier, challenge };
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m] as string);
}

/** The action and hidden inputs of the first form on the page. */
export function parseForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, "the page has a form");
  const fields: Record<string, string> = {};
  for (const input of (form[2] as string).matchAll(/<input\b[^>]*>/g)) {
    const tag = input[0];
    if (!/\btype="hidden"/.test(tag)) continue;
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? "";
    if (name) fields[unescapeHtml(name)] = unescapeHtml(value);
  }
  return { action: unescapeHtml(form[1] as string), fields };
}

/** Keeps cookies between requests, like a browser on one site. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  private readonly server: TestServer;

  constructor(server: TestServer) {
    this.server = server;
  }

  private remember(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = (pair as string).indexOf("=");
      if (eq > 0)
        this.cookies.set((pair as string).slice(0, eq).trim(), (pair as string).slice(eq + 1));
    }
    return res;
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
  }

  async get(path: string): Promise<Response> {
    return this.remember(await this.server.request(path, { headers: this.cookieHeader() }));
  }

  async postForm(path: string, fields: Record<string, string>): Promise<Response> {
    return this.remember(
      await this.server.request(path, {
        method: "POST",
        headers: { ...this.cookieHeader(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      }),
    );
  }

  /** Posts a multipart form (a file upload) with the cookies. */
  async postMultipart(path: string, form: FormData): Promise<Response> {
    return this.remember(
      await this.server.request(path, { method: "POST", headers: this.cookieHeader(), body: form }),
    );
  }

  forget(): void {
    this.cookies.clear();
  }
}

export function authorizePath(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams(params).toString()}`;
}

/** Opens the authorize page and returns the form fields to submit with credentials. */
export async function openAuthorizeForm(
  browser: Browser,
  params: Record<string, string>,
): Promise<Record<string, string>> {
  const page = await browser.get(authorizePath(params));
  const html = await page.text();
  assert.equal(page.status, 200, html);
  assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
  const { action, fields } = parseForm(html);
  assert.equal(action, "/oauth/authorize");
  return fields;
}

/**
 * Opens the authorize page for `app` in a new cookie-keeping browser: redirect to REDIRECT,
 * response_type code, and whatever `params` add or replace.
 */
export async function openSignInForm(
  server: TestServer,
  app: RegisteredApp,
  params: Record<string, string> = {},
): Promise<{ browser: Browser; fields: Record<string, string> }> {
  const browser = new Browser(server);
  const fields = await openAuthorizeForm(browser, {
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    ...params,
  });
  return { browser, fields };
}

/**
 * Submits the form as alice with the right password; `changes` replace or add fields. No
 * `decision` unless given: a sign-in without one approves, as a form submitted by Enter does.
 */
export function signIn(
  browser: Browser,
  fields: Record<string, string>,
  changes: Record<string, string> = {},
): Promise<Response> {
  return browser.postForm("/oauth/authorize", {
    ...fields,
    login: "alice",
    password: PASSWORD,
    ...changes,
  });
}

/** Runs the browser part of the flow (PKCE S256) and returns the code from the redirect. */
export async function authorizeCode(
  server: TestServer,
  app: RegisteredApp,
  options: { login?: string; scope?: string; state?: string; challenge?: string } = {},
): Promise<string> {
  const { browser, fields } = await openSignInForm(server, app, {
    scope: options.scope ?? "read write",
    state: options.state ?? "xyz",
    ...(options.challenge
      ? { code_challenge: options.challenge, code_challenge_method: "S256" }
      : {}),
  });
  const res = await signIn(browser, fields, {
    login: options.login ?? "alice",
    decision: "approve",
  });
  assert.equal(res.status, 302, await res.text());
  const location = new URL(res.headers.get("location") as string);
  const code = location.searchParams.get("code");
  assert.ok(code);
  return code;
}

export async function postToken(
  server: TestServer,
  body: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return server.request("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** Trades an authorization code at POST /oauth/token; redirect_uri defaults to REDIRECT. */
export function exchangeCode(
  server: TestServer,
  code: string,
  body: {
    client_id: string;
    client_secret?: string;
    redirect_uri?: string;
    code_verifier?: string;
  },
): Promise<Response> {
  return postToken(server, {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT,
    ...body,
  });
}

/** A user token with a refresh token, through the full authorization-code flow. */
export async function userToken(
  server: TestServer,
  app: RegisteredApp,
  scope = "read write",
): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const { verifier, challenge } = pkcePair();
  const code = await authorizeCode(server, app, { scope, challenge });
  const res = await exchangeCode(server, code, { ...credentialsOf(app), code_verifier: verifier });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as { access_token: string; refresh_token: string; scope: string };
}
