// Login throttling over real HTTP: password sign-ins at POST /oauth/authorize are limited per
// client address and per account (whatever name it is given by, and shared with the password
// grant), token requests per address; refusals are 429s carrying Mastodon's X-RateLimit-*
// headers, a page for the browser form and JSON for the token endpoint.

import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, it } from "node:test";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  authorizePath,
  type Browser,
  createUser,
  credentialsOf,
  type ErrorJson,
  openSignInForm,
  PASSWORD,
  parseForm,
  postToken,
  REDIRECT,
  type RegisteredApp,
  readJson,
  registerApp,
  signIn,
} from "./helpers.ts";

const WINDOW_SECONDS = 300;

/** A sign-in attempt as `login`: approve pressed, so it counts against both limits. */
function attempt(
  browser: Browser,
  fields: Record<string, string>,
  login: string,
  password: string,
): Promise<Response> {
  return signIn(browser, fields, { login, password, decision: "approve" });
}

function rateHeaders(res: Response): { limit: string | null; remaining: string | null } {
  return {
    limit: res.headers.get("x-ratelimit-limit"),
    remaining: res.headers.get("x-ratelimit-remaining"),
  };
}

/** A refused sign-in: a 429 page (not JSON, not a redirect) with the headers of a spent limit. */
async function assertSignInRefused(res: Response, limit: number, now: number): Promise<void> {
  assert.equal(res.status, 429);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  assert.equal(res.headers.get("location"), null);
  assert.deepEqual(rateHeaders(res), { limit: String(limit), remaining: "0" });
  const reset = Date.parse(res.headers.get("x-ratelimit-reset") ?? "");
  assert.ok(reset > now, "the reset time is in the future");
  assert.match(await res.text(), /Too many sign-in attempts/);
}

/**
 * POSTs a form from another loopback address (127.0.0.2 and up reach the server on Linux), to
 * show which limits are per address. Returns the status and the limit's remaining count.
 */
function postFromAddress(
  server: TestServer,
  localAddress: string,
  cookie: string,
  fields: Record<string, string>,
): Promise<{ status: number; remaining: string | undefined }> {
  const body = new URLSearchParams(fields).toString();
  const url = new URL("/oauth/authorize", server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        localAddress,
        headers: {
          cookie,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            remaining: res.headers["x-ratelimit-remaining"] as string | undefined,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("login throttling per address", () => {
  const LIMIT = 3;
  let now = Date.now();
  let server: TestServer;
  let app: RegisteredApp;
  before(async () => {
    server = await startTestServer(
      {
        WREN_LOGIN_RATE_LIMIT_REQUESTS: String(LIMIT),
        WREN_LOGIN_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
      },
      { clock: { now: () => new Date(now) } },
    );
    await createUser(server, "alice");
    app = await registerApp(server);
  });
  after(() => server.close());

  it("refuses sign-ins past the limit, even with the right password, until the window ends", async () => {
    const { browser, fields } = await openSignInForm(server, app);
    for (let used = 1; used <= LIMIT; used++) {
      const res = await attempt(browser, fields, "alice", "wrong password");
      assert.equal(res.status, 401);
      assert.deepEqual(rateHeaders(res), { limit: String(LIMIT), remaining: String(LIMIT - used) });
    }
    await assertSignInRefused(await attempt(browser, fields, "alice", PASSWORD), LIMIT, now);
    // Another login from the same address is refused too: the address is what is counted.
    await assertSignInRefused(await attempt(browser, fields, "bob", "guess"), LIMIT, now);
    // Showing the form is not a sign-in attempt and stays available.
    assert.equal((await openSignInForm(server, app)).fields.client_id, app.client_id);

    // Once the window ends, signing in works again and counts in a fresh window.
    now += WINDOW_SECONDS * 1000 + 1000;
    const again = await openSignInForm(server, app);
    const res = await attempt(again.browser, again.fields, "alice", PASSWORD);
    assert.equal(res.status, 302);
    assert.ok(new URL(res.headers.get("location") as string).searchParams.get("code"));
    assert.deepEqual(rateHeaders(res), { limit: String(LIMIT), remaining: String(LIMIT - 1) });
  });

  it("counts each client address on its own", async () => {
    now += WINDOW_SECONDS * 1000 + 1000;
    const elsewhere = await formForRawRequests(server, app);
    const form = { ...elsewhere.fields, login: "alice", password: "wrong", decision: "approve" };
    for (let used = 1; used <= LIMIT; used++) {
      const res = await postFromAddress(server, "127.0.0.2", elsewhere.cookie, form);
      assert.deepEqual(res, { status: 401, remaining: String(LIMIT - used) });
    }
    const refused = await postFromAddress(server, "127.0.0.2", elsewhere.cookie, form);
    assert.deepEqual(refused, { status: 429, remaining: "0" });
    // 127.0.0.1 has its own, untouched count.
    const { browser, fields } = await openSignInForm(server, app);
    const res = await attempt(browser, fields, "alice", "wrong");
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("x-ratelimit-remaining"), String(LIMIT - 1));
  });

  it("limits token requests per address and answers in JSON", async () => {
    now += WINDOW_SECONDS * 1000 + 1000;
    // Guessing codes for a public client: each guess is an ordinary invalid_grant until the limit.
    const body = {
      grant_type: "authorization_code",
      code: "guess",
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      code_verifier: "v".repeat(43),
    };
    for (let used = 1; used <= LIMIT; used++) {
      const res = await postToken(server, body);
      assert.equal(res.status, 400);
      assert.equal((await readJson<ErrorJson>(res)).error, "invalid_grant");
      assert.deepEqual(rateHeaders(res), { limit: String(LIMIT), remaining: String(LIMIT - used) });
    }
    // Valid client credentials do not get past the limit either.
    const refused = await postToken(server, {
      grant_type: "client_credentials",
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(rateHeaders(refused), { limit: String(LIMIT), remaining: "0" });
    assert.ok(Date.parse(refused.headers.get("x-ratelimit-reset") ?? "") > now);
    const error = await readJson<ErrorJson>(refused);
    assert.deepEqual(error, { error: "Too many requests" });
    assertMatchesResponse("POST", "/oauth/token", 429, error);

    // The token endpoint's count is its own: sign-in from this address still works.
    const { browser, fields } = await openSignInForm(server, app);
    assert.equal((await attempt(browser, fields, "alice", PASSWORD)).status, 302);
  });
});

/** The CSRF cookie and form fields of a fresh authorize page, for postFromAddress. */
async function formForRawRequests(
  server: TestServer,
  app: RegisteredApp,
): Promise<{ cookie: string; fields: Record<string, string> }> {
  const page = await server.request(
    authorizePath({ client_id: app.client_id, redirect_uri: REDIRECT, response_type: "code" }),
  );
  const cookie = (page.headers.getSetCookie()[0] ?? "").split(";")[0] as string;
  assert.ok(cookie);
  return { cookie, fields: parseForm(await page.text()).fields };
}

describe("login throttling per login name", () => {
  const LIMIT = 2;
  let server: TestServer;
  let app: RegisteredApp;
  before(async () => {
    server = await startTestServer({
      WREN_LOGIN_RATE_LIMIT_REQUESTS: "100",
      WREN_LOGIN_ACCOUNT_RATE_LIMIT_REQUESTS: String(LIMIT),
      WREN_LOGIN_ACCOUNT_RATE_LIMIT_WINDOW_SECONDS: "3600",
    });
    await createUser(server, "alice");
    await createUser(server, "bob");
    app = await registerApp(server);
  });
  after(() => server.close());

  it("refuses a login named too often, however it is written and from any address", async () => {
    const { browser, fields } = await openSignInForm(server, app);
    const first = await attempt(browser, fields, "alice", "wrong");
    assert.equal(first.status, 401);
    // The tighter of the two limits is the one announced.
    assert.deepEqual(rateHeaders(first), { limit: String(LIMIT), remaining: String(LIMIT - 1) });
    const domain = new URL(server.url).host;
    assert.equal((await attempt(browser, fields, `@ALICE@${domain}`, "wrong")).status, 401);
    await assertSignInRefused(
      await attempt(browser, fields, " Alice ", PASSWORD),
      LIMIT,
      Date.now(),
    );
    const elsewhere = await formForRawRequests(server, app);
    const fromElsewhere = await postFromAddress(server, "127.0.0.3", elsewhere.cookie, {
      ...elsewhere.fields,
      login: "@alice",
      password: PASSWORD,
      decision: "approve",
    });
    assert.equal(fromElsewhere.status, 429);

    // Other people sign in as usual, and denying is never throttled.
    assert.equal((await attempt(browser, fields, "bob", PASSWORD)).status, 302);
    const deny = await browser.postForm("/oauth/authorize", {
      ...fields,
      login: "alice",
      decision: "deny",
    });
    assert.equal(deny.status, 302);
    assert.equal(
      new URL(deny.headers.get("location") as string).searchParams.get("error"),
      "access_denied",
    );
  });
});

describe("login throttling per account", () => {
  const LIMIT = 2;
  let server: TestServer;
  let app: RegisteredApp;
  before(async () => {
    server = await startTestServer({
      WREN_LOGIN_RATE_LIMIT_REQUESTS: "100",
      WREN_LOGIN_ACCOUNT_RATE_LIMIT_REQUESTS: String(LIMIT),
      WREN_LOGIN_ACCOUNT_RATE_LIMIT_WINDOW_SECONDS: "3600",
    });
    for (const name of ["alice", "bob", "carol"]) await createUser(server, name);
    app = await registerApp(server);
  });
  after(() => server.close());

  function passwordGrant(username: string, password: string): Promise<Response> {
    return postToken(server, {
      grant_type: "password",
      ...credentialsOf(app),
      username,
      password,
    });
  }

  it("counts the email address and the username of one account on one counter", async () => {
    const { browser, fields } = await openSignInForm(server, app);
    assert.equal((await attempt(browser, fields, "alice", "wrong")).status, 401);
    assert.equal((await attempt(browser, fields, "ALICE@mail.example", "wrong")).status, 401);
    // Two guesses spent the account's two: neither name gets a third.
    await assertSignInRefused(await attempt(browser, fields, "alice", PASSWORD), LIMIT, Date.now());
    await assertSignInRefused(
      await attempt(browser, fields, "alice@mail.example", PASSWORD),
      LIMIT,
      Date.now(),
    );
  });

  it("shares the counter between the sign-in page and the password grant", async () => {
    const { browser, fields } = await openSignInForm(server, app);
    assert.equal((await attempt(browser, fields, "bob", "wrong")).status, 401);
    const guess = await passwordGrant("bob@mail.example", "wrong");
    assert.equal(guess.status, 400);
    assert.equal((await readJson<ErrorJson>(guess)).error, "invalid_grant");
    assert.deepEqual(rateHeaders(guess), { limit: String(LIMIT), remaining: "0" });

    // Spent through either door, refused at both: JSON at the token endpoint, a page in the form.
    const refused = await passwordGrant("bob", PASSWORD);
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(await readJson<ErrorJson>(refused), { error: "Too many requests" });
    await assertSignInRefused(await attempt(browser, fields, "bob", PASSWORD), LIMIT, Date.now());

    // Other grants at the token endpoint are not password attempts and are not counted.
    const appToken = await postToken(server, {
      grant_type: "client_credentials",
      ...credentialsOf(app),
    });
    assert.equal(appToken.status, 200);
    // And carol, another account, still signs in by the password grant.
    assert.equal((await passwordGrant("carol", PASSWORD)).status, 200);
  });

  it("counts a login that names no account by the name as given", async () => {
    assert.equal((await passwordGrant("nobody", "guess")).status, 400);
    assert.equal((await passwordGrant("@Nobody", "guess")).status, 400);
    assert.equal((await passwordGrant("nobody", "guess")).status, 429);
    // Another unknown name has its own count.
    assert.equal((await passwordGrant("somebody@mail.example", "guess")).status, 400);
  });
});
