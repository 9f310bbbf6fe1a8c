// The browser session over real HTTP: the sign-in page sets a Secure-when-https, HttpOnly,
// SameSite=Lax cookie whose secret is stored only hashed; a wrong password, a form without its
// CSRF token, a disabled or unapproved user are refused; the settings pages want a session and a
// session-bound CSRF token on every form; signing out ends the session for every copy of the
// cookie; a session ends after its lifetime, and a password reset ends them all.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { resetPassword } from "../../src/services/accounts/reset-password.ts";
import { hashSecret } from "../../src/services/auth/secrets.ts";
import { WEB_SESSION_LIFETIME_MS } from "../../src/services/auth/web-sessions.ts";
import { createTestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { Browser, PASSWORD, parseForm, UNTHROTTLED_LOGINS } from "../oauth/helpers.ts";

/** Opens the sign-in page and posts it with `login` and `password` (and any changes). */
async function signIn(
  browser: Browser,
  login: string,
  password = PASSWORD,
  changes: Record<string, string> = {},
): Promise<Response> {
  const form = await browser.get("/auth/sign_in?return_to=%2Fsettings%2Fimport");
  assert.equal(form.status, 200);
  const { action, fields } = parseForm(await form.text());
  assert.equal(action, "/auth/sign_in");
  return browser.postForm(action, { ...fields, login, password, ...changes });
}

/** The CSRF token of the first form on a signed-in page. */
async function pageToken(browser: Browser, path: string): Promise<string> {
  const res = await browser.get(path);
  assert.equal(res.status, 200);
  return parseForm(await res.text()).fields.authenticity_token as string;
}

describe("the web session", () => {
  let server: TestServer;
  let offset = 0;
  before(async () => {
    server = await startTestServer(UNTHROTTLED_LOGINS, {
      clock: { now: () => new Date(Date.now() + offset) },
    });
    await createTestUser(server, "alice");
  });
  after(() => server?.close());

  it("sends a signed-out browser to the sign-in page and back", async () => {
    const browser = new Browser(server);
    const res = await browser.get("/settings/aliases");
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/auth/sign_in?return_to=%2Fsettings%2Faliases");
    const post = await browser.postForm("/settings/aliases", { alias: "x" });
    assert.equal(post.status, 401);
  });

  it("refuses a wrong password and a form without its CSRF token", async () => {
    const browser = new Browser(server);
    const wrong = await signIn(browser, "alice", "not the password");
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /Invalid email or password/);
    assert.ok(!wrong.headers.getSetCookie().some((c) => c.startsWith("wren_session=")));
    const forged = await signIn(browser, "alice", PASSWORD, { authenticity_token: "1.forged" });
    assert.equal(forged.status, 403);
    assert.ok(!forged.headers.getSetCookie().some((c) => c.startsWith("wren_session=")));
  });

  it("signs in with a hashed, HttpOnly, SameSite=Lax cookie and guards every form", async () => {
    const browser = new Browser(server);
    const res = await signIn(browser, "alice");
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/settings/import");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("wren_session="));
    assert.ok(cookie);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.match(cookie, /; Path=\//);
    // Plain http here: Secure only when the public URL is https.
    assert.doesNotMatch(cookie, /; Secure/);
    const value = decodeURIComponent(/^wren_session=([^;]+)/.exec(cookie)?.[1] ?? "");
    const [accountId, secret] = value.split(".");
    const stored = await server.wren.ctx.storage.kv.list(["web-session", accountId as string]);
    assert.deepEqual(
      stored.map((e) => e.key[2]),
      [hashSecret(secret as string)],
    );
    assert.ok(!JSON.stringify(stored).includes(secret as string));

    // Signing in again replaces the browser's session: the first one ends.
    const twice = new Browser(server);
    const { fields } = parseForm(await (await twice.get("/auth/sign_in")).text());
    const credentials = { ...fields, login: "alice", password: PASSWORD };
    const firstSession = (await twice.postForm("/auth/sign_in", credentials)).headers
      .getSetCookie()
      .find((c) => c.startsWith("wren_session="))
      ?.split(";")[0] as string;
    assert.equal((await twice.postForm("/auth/sign_in", credentials)).status, 303);
    const replaced = await server.request("/settings/aliases", {
      headers: { cookie: firstSession },
    });
    assert.equal(replaced.status, 303);
    assert.equal((await twice.get("/settings/aliases")).status, 200);

    const page = await browser.get("/settings/aliases");
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Signed in as <strong>alice<\/strong>/);
    // An already signed-in browser skips the form.
    const again = await browser.get("/auth/sign_in?return_to=%2Fsettings%2Fexport");
    assert.equal(again.headers.get("location"), "/settings/export");

    // A form posted without the token, or with the token of another session, is refused.
    const bare = await browser.postForm("/settings/aliases", { alias: "bob" });
    assert.equal(bare.status, 403);
    const other = new Browser(server);
    await signIn(other, "alice");
    const foreign = await pageToken(other, "/settings/aliases");
    const crossed = await browser.postForm("/settings/aliases", {
      alias: "bob",
      authenticity_token: foreign,
    });
    assert.equal(crossed.status, 403);
    assert.match(await crossed.text(), /The form has expired/);
    // A return_to off the site is ignored.
    const offsite = await signIn(new Browser(server), "alice", PASSWORD, {
      return_to: "//evil.example/",
    });
    assert.equal(offsite.headers.get("location"), "/settings");
  });

  it("signs out: the session ends for every copy of its cookie", async () => {
    const browser = new Browser(server);
    const res = await signIn(browser, "alice");
    const cookie = (
      res.headers.getSetCookie().find((c) => c.startsWith("wren_session=")) ?? ""
    ).split(";")[0] as string;
    const token = await pageToken(browser, "/settings/aliases");
    const forged = await browser.postForm("/auth/sign_out", { authenticity_token: "1.x" });
    assert.equal(forged.status, 403);
    const out = await browser.postForm("/auth/sign_out", { authenticity_token: token });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get("location"), "/auth/sign_in");
    const replay = await server.request("/settings/aliases", { headers: { cookie } });
    assert.equal(replay.status, 303);
    assert.match(replay.headers.get("location") ?? "", /^\/auth\/sign_in/);
  });

  it("ends a session after its lifetime, and every session on a password reset", async () => {
    const browser = new Browser(server);
    await signIn(browser, "alice");
    assert.equal((await browser.get("/settings/aliases")).status, 200);
    offset = WEB_SESSION_LIFETIME_MS + 1000;
    try {
      assert.equal((await browser.get("/settings/aliases")).status, 303);
    } finally {
      offset = 0;
    }
    const second = new Browser(server);
    await signIn(second, "alice");
    assert.equal((await second.get("/settings/export")).status, 200);
    await resetPassword(server.wren.ctx, { username: "alice", password: PASSWORD });
    assert.equal((await second.get("/settings/export")).status, 303);
  });

  it("lets no disabled, unconfirmed or unapproved user in", async () => {
    const { user } = await createTestUser(server, "dora");
    const users = server.wren.ctx.storage.users;
    const browser = new Browser(server);
    assert.equal((await signIn(browser, "dora")).status, 303);
    await users.put({ ...user, approved: false });
    assert.equal((await browser.get("/settings/aliases")).status, 303);
    const pending = await signIn(browser, "dora");
    assert.equal(pending.status, 403);
    assert.match(await pending.text(), /pending approval/);
    await users.put({ ...user, confirmed: false });
    assert.match(await (await signIn(browser, "dora")).text(), /confirmed e-mail address/);
    await users.put({ ...user, disabled: true });
    assert.equal((await signIn(browser, "dora")).status, 401);
  });

  it("throttles sign-in attempts per account, as the OAuth sign-in page does", async () => {
    const strict = await startTestServer({ WREN_LOGIN_ACCOUNT_RATE_LIMIT_REQUESTS: "2" });
    try {
      await createTestUser(strict, "erin");
      const browser = new Browser(strict);
      assert.equal((await signIn(browser, "erin", "wrong")).status, 401);
      assert.equal((await signIn(browser, "@erin", "wrong")).status, 401);
      const refused = await signIn(browser, "erin");
      assert.equal(refused.status, 429);
      assert.match(await refused.text(), /Too many sign-in attempts/);
    } finally {
      await strict.close();
    }
  });
});
