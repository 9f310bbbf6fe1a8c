// The authorization-code flow driven like a browser: the authorize page, its form, the redirect
// with the code, then the token exchange and a call with the token.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  type AppJson,
  authorizeCode,
  authorizePath,
  Browser,
  createUser,
  credentialsOf,
  type ErrorJson,
  exchangeCode,
  OOB,
  openSignInForm,
  PASSWORD,
  parseForm,
  pkcePair,
  REDIRECT,
  type RegisteredApp,
  readJson,
  registerApp,
  signIn,
  type TokenJson,
  UNTHROTTLED_LOGINS,
} from "./helpers.ts";

describe("OAuth authorization code flow", () => {
  let server: TestServer;
  let app: RegisteredApp;
  before(async () => {
    server = await startTestServer(UNTHROTTLED_LOGINS);
    await createUser(server, "alice");
    app = await registerApp(server);
  });
  after(() => server.close());

  it("runs the whole PKCE S256 flow and the token works", async () => {
    const browser = new Browser(server);
    const { verifier, challenge } = pkcePair();
    const page = await browser.get(
      authorizePath({
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "read write",
        state: "st<at>e&1",
        code_challenge: challenge,
        code_challenge_method: "S256",
        force_login: "true",
        lang: "de",
      }),
    );
    assert.equal(page.status, 200);
    assert.match(page.headers.get("cache-control") ?? "", /no-store/);
    assert.match(page.headers.get("content-security-policy") ?? "", /default-src 'none'/);
    assert.equal(page.headers.get("x-frame-options"), "DENY");
    const html = await page.text();
    assert.match(html, /Authorize Test Client\?/);
    assert.match(html, /<code class="muted">read<\/code>/);
    assert.match(html, /<code class="muted">write<\/code>/);
    assert.match(html, /<label for="password">/);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /st<at>e/, "state is escaped in the page");
    const { fields } = parseForm(html);
    assert.equal(fields.state, "st<at>e&1");
    assert.equal(fields.code_challenge, challenge);
    assert.ok(fields.authenticity_token);

    const res = await signIn(browser, fields, { decision: "approve" });
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get("location") as string);
    assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
    assert.equal(location.searchParams.get("state"), "st<at>e&1");
    const code = location.searchParams.get("code") as string;
    assert.ok(code.length >= 40);

    // A public client: no secret, the verifier proves it started the flow. It gets no refresh
    // token, since refreshing needs the client secret it did not show.
    const tokenRes = await exchangeCode(server, code, {
      client_id: app.client_id,
      code_verifier: verifier,
    });
    assert.equal(tokenRes.status, 200);
    assert.equal(tokenRes.headers.get("cache-control"), "no-store");
    const token = await readJson<TokenJson>(tokenRes);
    assertMatchesSchema(token, "Token");
    assertMatchesResponse("POST", "/oauth/token", 200, token);
    assert.equal(token.token_type, "Bearer");
    assert.equal(token.scope, "read write");
    assert.equal("refresh_token" in token, false);
    assert.ok(Math.abs(token.created_at - Date.now() / 1000) < 60);

    const verify = await server.request("/api/v1/apps/verify_credentials", {
      token: token.access_token,
    });
    assert.equal(verify.status, 200);
    assert.equal((await readJson<AppJson>(verify)).id, app.id);
  });

  it("signs in with the email address too and accepts a confidential client", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizeCode(server, app, { login: "alice@mail.example", challenge });
    const res = await exchangeCode(server, code, {
      ...credentialsOf(app),
      code_verifier: verifier,
    });
    assert.equal(res.status, 200);
    // A client that authenticated gets a refresh token.
    assert.equal(typeof (await readJson<TokenJson>(res)).refresh_token, "string");
  });

  it("refuses the plain PKCE method and a challenge without a method, as Mastodon does", async () => {
    const challenge = "a".repeat(50);
    for (const method of [{ code_challenge_method: "plain" }, {}] as Record<string, string>[]) {
      const page = await new Browser(server).get(
        authorizePath({
          client_id: app.client_id,
          redirect_uri: REDIRECT,
          response_type: "code",
          state: "s2",
          code_challenge: challenge,
          ...method,
        }),
      );
      assert.equal(page.status, 302);
      const location = new URL(page.headers.get("location") as string);
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
      assert.equal(location.searchParams.get("error"), "invalid_request");
      assert.equal(
        location.searchParams.get("error_description"),
        "The code_challenge_method must be S256.",
      );
      assert.equal(location.searchParams.get("state"), "s2");
      assert.equal(location.searchParams.has("code"), false);
    }

    // The form's hidden fields are re-checked: switching them to plain gets no code either.
    const { browser, fields } = await openSignInForm(server, app, {
      code_challenge: pkcePair().challenge,
      code_challenge_method: "S256",
    });
    const forged = await signIn(browser, {
      ...fields,
      code_challenge: challenge,
      code_challenge_method: "plain",
    });
    assert.equal(forged.status, 302);
    const location = new URL(forged.headers.get("location") as string);
    assert.equal(location.searchParams.get("error"), "invalid_request");
    assert.equal(location.searchParams.has("code"), false);

    // With the out-of-band URI there is nowhere to redirect: the error is a page.
    const oob = await new Browser(server).get(
      authorizePath({
        client_id: app.client_id,
        redirect_uri: OOB,
        response_type: "code",
        code_challenge: challenge,
        code_challenge_method: "plain",
      }),
    );
    assert.equal(oob.status, 400);
    assert.match(await oob.text(), /The code_challenge_method must be S256\./);
  });

  it("shows the code on a page for the out-of-band redirect URI", async () => {
    const { browser, fields } = await openSignInForm(server, app, {
      redirect_uri: OOB,
      scope: "read",
    });
    const res = await signIn(browser, fields, { decision: "approve" });
    assert.equal(res.status, 200);
    const html = await res.text();
    const code = /<code id="authorization-code">([^<]+)<\/code>/.exec(html)?.[1] as string;
    assert.ok(code);
    const token = await exchangeCode(server, code, { ...credentialsOf(app), redirect_uri: OOB });
    assert.equal(token.status, 200);
    assert.equal((await readJson<TokenJson>(token)).scope, "read");
  });

  it("refuses a wrong verifier, then the same code again, with invalid_grant", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizeCode(server, app, { challenge });
    const exchange = (code_verifier: string) =>
      exchangeCode(server, code, { client_id: app.client_id, code_verifier });
    const wrong = await exchange(pkcePair().verifier);
    assert.equal(wrong.status, 400);
    const error = await readJson<ErrorJson>(wrong);
    assertMatchesResponse("POST", "/oauth/token", 400, error);
    assert.equal(error.error, "invalid_grant");
    assert.match(error.error_description ?? "", /^The provided authorization grant is invalid/);
    // The failed attempt spent the code: the right verifier cannot use it afterwards.
    const retry = await exchange(verifier);
    assert.equal(retry.status, 400);
    assert.equal((await readJson<ErrorJson>(retry)).error, "invalid_grant");
  });

  it("lets a code be used only once", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizeCode(server, app, { challenge });
    const exchange = () =>
      exchangeCode(server, code, { ...credentialsOf(app), code_verifier: verifier });
    assert.equal((await exchange()).status, 200);
    const again = await exchange();
    assert.equal(again.status, 400);
    assert.equal((await readJson<ErrorJson>(again)).error, "invalid_grant");
  });

  it("refuses a redirect_uri other than the one used at authorize", async () => {
    const { verifier, challenge } = pkcePair();
    const code = await authorizeCode(server, app, { challenge });
    const res = await exchangeCode(server, code, {
      ...credentialsOf(app),
      redirect_uri: OOB,
      code_verifier: verifier,
    });
    assert.equal(res.status, 400);
    assert.equal((await readJson<ErrorJson>(res)).error, "invalid_grant");
  });

  it("refuses a code from another app, and a public client without PKCE", async () => {
    const other = await registerApp(server, { client_name: "Other" });
    const { verifier, challenge } = pkcePair();
    const code = await authorizeCode(server, app, { challenge });
    const res = await exchangeCode(server, code, {
      ...credentialsOf(other),
      code_verifier: verifier,
    });
    assert.equal((await readJson<ErrorJson>(res)).error, "invalid_grant");

    const plainCode = await authorizeCode(server, app);
    const noSecret = await exchangeCode(server, plainCode, { client_id: app.client_id });
    assert.equal(noSecret.status, 401);
    assert.equal((await readJson<ErrorJson>(noSecret)).error, "invalid_client");
  });

  it("expires codes after ten minutes", async () => {
    let now = Date.now();
    const clocked = await startTestServer({}, { clock: { now: () => new Date(now) } });
    try {
      await createUser(clocked, "bob");
      const clockedApp = await registerApp(clocked);
      const { verifier, challenge } = pkcePair();
      const code = await authorizeCode(clocked, clockedApp, { login: "bob", challenge });
      now += 10 * 60 * 1000 + 1000;
      const res = await exchangeCode(clocked, code, {
        client_id: clockedApp.client_id,
        code_verifier: verifier,
      });
      assert.equal(res.status, 400);
      assert.equal((await readJson<ErrorJson>(res)).error, "invalid_grant");
    } finally {
      await clocked.close();
    }
  });

  it("shows the form again with an error for a wrong password", async () => {
    const { browser, fields } = await openSignInForm(server, app);
    for (const login of ["alice", "nobody"]) {
      const res = await signIn(browser, fields, {
        login,
        password: "wrong password",
        decision: "approve",
      });
      assert.equal(res.status, 401);
      const html = await res.text();
      assert.match(html, /role="alert"[^>]*>Invalid email or password\.</);
      assert.match(html, new RegExp(`value="${login}"`));
      // The re-rendered form works: the right password now succeeds.
      const retry = await signIn(browser, parseForm(html).fields);
      assert.equal(retry.status, 302);
    }
  });

  it("sends access_denied to the client when the person denies", async () => {
    const { browser, fields } = await openSignInForm(server, app, { state: "s1" });
    const res = await browser.postForm("/oauth/authorize", { ...fields, decision: "deny" });
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get("location") as string);
    assert.equal(location.searchParams.get("error"), "access_denied");
    assert.equal(location.searchParams.get("state"), "s1");
    assert.equal(location.searchParams.has("code"), false);
  });

  it("refuses a POST without the CSRF token or cookie", async () => {
    const { browser, fields } = await openSignInForm(server, app);
    const credentials = { login: "alice", password: PASSWORD, decision: "approve" };
    const { authenticity_token: _, ...withoutToken } = fields;
    const missing = await browser.postForm("/oauth/authorize", { ...withoutToken, ...credentials });
    assert.equal(missing.status, 403);
    assert.equal(missing.headers.get("location"), null);

    const forged = await browser.postForm("/oauth/authorize", {
      ...fields,
      authenticity_token: `${fields.authenticity_token}x`,
      ...credentials,
    });
    assert.equal(forged.status, 403);

    // Another browser (no cookie) replaying a valid token is refused too.
    const stranger = new Browser(server);
    const replay = await stranger.postForm("/oauth/authorize", { ...fields, ...credentials });
    assert.equal(replay.status, 403);
  });

  it("refuses scopes beyond the app's with invalid_scope at the redirect URI", async () => {
    const narrow = await registerApp(server, { scopes: "read" });
    const browser = new Browser(server);
    const res = await browser.get(
      authorizePath({
        client_id: narrow.client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope: "read write",
        state: "s2",
      }),
    );
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get("location") as string);
    assert.equal(location.searchParams.get("error"), "invalid_scope");
    assert.equal(location.searchParams.get("state"), "s2");

    // Forging the hidden scope field on a valid form does not widen the grant either.
    const form = await openSignInForm(server, narrow);
    const forged = await signIn(form.browser, form.fields, { scope: "read write" });
    assert.equal(forged.status, 302);
    assert.equal(
      new URL(forged.headers.get("location") as string).searchParams.get("error"),
      "invalid_scope",
    );
  });

  it("shows an error page, never a redirect, for a bad client or redirect URI", async () => {
    const cases: Record<string, string>[] = [
      { client_id: "unknown", redirect_uri: REDIRECT, response_type: "code" },
      { client_id: app.client_id, redirect_uri: "https://evil.example/cb", response_type: "code" },
      { client_id: app.client_id, response_type: "code" },
      { redirect_uri: REDIRECT, response_type: "code" },
    ];
    for (const params of cases) {
      const res = await server.request(authorizePath(params));
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.headers.get("location"), null);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(await res.text(), /An error has occurred/);
    }
  });

  it("answers unsupported_response_type and bad PKCE methods at the redirect URI", async () => {
    const token = await server.request(
      authorizePath({ client_id: app.client_id, redirect_uri: REDIRECT, response_type: "token" }),
    );
    assert.equal(token.status, 302);
    assert.equal(
      new URL(token.headers.get("location") as string).searchParams.get("error"),
      "unsupported_response_type",
    );
    const method = await server.request(
      authorizePath({
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        code_challenge: pkcePair().challenge,
        code_challenge_method: "S512",
      }),
    );
    assert.equal(
      new URL(method.headers.get("location") as string).searchParams.get("error"),
      "invalid_request",
    );
    // With the out-of-band URI there is nowhere to redirect: an error page instead.
    const oob = await server.request(
      authorizePath({ client_id: app.client_id, redirect_uri: OOB, response_type: "token" }),
    );
    assert.equal(oob.status, 400);
    assert.equal(oob.headers.get("location"), null);
  });

  it("answers in the fragment or with a self-posting form when asked", async () => {
    const fragment = await server.request(
      authorizePath({
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        response_type: "token",
        response_mode: "fragment",
        state: "f",
      }),
    );
    const location = new URL(fragment.headers.get("location") as string);
    assert.equal(location.search, "");
    const hash = new URLSearchParams(location.hash.slice(1));
    assert.equal(hash.get("error"), "unsupported_response_type");
    assert.equal(hash.get("state"), "f");

    const { browser, fields } = await openSignInForm(server, app, {
      response_mode: "form_post",
      state: "p",
    });
    const res = await signIn(browser, fields);
    assert.equal(res.status, 200);
    const form = parseForm(await res.text());
    assert.equal(form.action, REDIRECT);
    assert.equal(form.fields.state, "p");
    assert.ok(form.fields.code);
  });

  it("escapes the app name and website on the page", async () => {
    const evil = await registerApp(server, {
      client_name: '<img src=x onerror="alert(1)">',
      website: 'https://x.example/"><script>alert(1)</script>',
    });
    const res = await server.request(
      authorizePath({ client_id: evil.client_id, redirect_uri: REDIRECT, response_type: "code" }),
    );
    const html = await res.text();
    assert.equal(res.status, 200);
    assert.doesNotMatch(html, /<img src=x/);
    assert.doesNotMatch(html, /<script>/);
    assert.match(html, /&lt;img src=x onerror=&quot;alert\(1\)&quot;&gt;/);
  });

  it("refuses disabled users", async () => {
    const { accountId } = await createUser(server, "carol");
    const user = await server.wren.ctx.storage.users.get(accountId);
    assert.ok(user);
    await server.wren.ctx.storage.users.put({ ...user, disabled: true });
    const { browser, fields } = await openSignInForm(server, app);
    const res = await signIn(browser, fields, { login: "carol" });
    assert.equal(res.status, 401);
  });

  it("answers a malformed POST with a 400 page, never a 500", async () => {
    const res = await server.request("/oauth/authorize", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=nothing" },
      body: "garbage",
    });
    assert.equal(res.status, 400);
  });
});
