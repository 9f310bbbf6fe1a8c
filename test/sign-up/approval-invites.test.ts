// Sign-up with WREN_REGISTRATIONS=approval and closed, through POST /api/v1/accounts: the reason
// approval needs, the pending account's token refused with Mastodon's words, the staff's
// admin.sign_up notification, approval and rejection, and invite links (closed and approval
// modes, use limits counted once each under concurrency, revocation, autofollow).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runAdminOperation } from "../../src/admin/operations.ts";
import type { InviteSummary } from "../../src/admin/operations-sign-ups.ts";
import { createAppToken, createUserWithToken } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { openSignInForm, registerApp, signIn } from "../oauth/helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the schemas
type Json = any;

function signUp(server: TestServer, token: string, body: Record<string, unknown>) {
  return server.request("/api/v1/accounts", {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const person = (name: string, extra: Record<string, unknown> = {}) => ({
  username: name,
  email: `${name}@mail.example`,
  password: "a long enough password",
  agreement: true,
  locale: "en",
  ...extra,
});

async function invite(server: TestServer, args: Record<string, unknown> = {}) {
  return (await runAdminOperation(server.wren.ctx, "invite.create", args)) as InviteSummary;
}

describe("sign-up with WREN_REGISTRATIONS=approval", () => {
  let server: TestServer;
  let appToken: string;
  let admin: { token: string };
  let moderator: { token: string };
  before(async () => {
    server = await startTestServer({ WREN_REGISTRATIONS: "approval" });
    appToken = (await createAppToken(server, ["read", "write"])).token;
    admin = await createUserWithToken(server, "boss", ["read", "write"], { role: "admin" });
    moderator = await createUserWithToken(server, "mod", ["read"], { role: "moderator" });
  });
  after(() => server.close());

  it("needs a reason, reported in the 422's details", async () => {
    const res = await signUp(server, appToken, person("noreason"));
    const body: Json = await res.json();
    assert.equal(res.status, 422);
    assertMatchesResponse("POST", "/api/v1/accounts", 422, body);
    assert.deepEqual(body.details.reason, [{ error: "ERR_BLANK", description: "can't be blank" }]);
    assert.equal(
      await server.wren.ctx.storage.accounts.findByUsername("noreason", null),
      undefined,
    );
  });

  it("holds the account until approved: its token answers 403, the staff are notified", async () => {
    const res = await signUp(server, appToken, person("waiting", { reason: "I like birds" }));
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    const me = await server.request("/api/v1/accounts/verify_credentials", {
      token: body.access_token,
    });
    assert.equal(me.status, 403);
    assert.deepEqual(await me.json(), { error: "Your login is currently pending approval" });

    for (const staff of [admin, moderator]) {
      const list = await server.request("/api/v1/notifications", { token: staff.token });
      const notifications: Json = await list.json();
      assert.equal(list.status, 200);
      assertMatchesResponse("GET", "/api/v1/notifications", 200, notifications);
      const signUps = notifications.filter((n: Json) => n.type === "admin.sign_up");
      assert.deepEqual(
        signUps.map((n: Json) => n.account.username),
        ["waiting"],
      );
    }

    // Until approved the account does not exist to others, as on Mastodon.
    const stored = await server.wren.ctx.storage.accounts.findByUsername("waiting", null);
    const host = new URL(server.url).host;
    const visible = async () =>
      Promise.all(
        [
          `/api/v1/accounts/${stored?.id}`,
          "/api/v1/accounts/lookup?acct=waiting",
          "/@waiting",
          `/.well-known/webfinger?resource=acct:waiting@${host}`,
        ].map(async (path) => (await server.request(path)).status),
      );
    assert.deepEqual(await visible(), [404, 404, 404, 404]);

    // Nor can it authorize an app on the sign-in page.
    const app = await registerApp(server);
    const { browser, fields } = await openSignInForm(server, app, { scope: "read" });
    const refusedSignIn = await signIn(browser, fields, {
      login: "waiting",
      password: "a long enough password",
      decision: "approve",
    });
    assert.equal(refusedSignIn.status, 401);
    assert.match(await refusedSignIn.text(), /Your login is currently pending approval/);

    const pending = (await runAdminOperation(server.wren.ctx, "account.pending", {})) as Json[];
    assert.deepEqual(
      pending.map((p) => [p.username, p.reason]),
      [["waiting", "I like birds"]],
    );
    assert.deepEqual(
      await runAdminOperation(server.wren.ctx, "account.approve", { username: "waiting" }),
      { changed: true },
    );
    const after = await server.request("/api/v1/accounts/verify_credentials", {
      token: body.access_token,
    });
    assert.equal(after.status, 200);
    assert.equal(((await after.json()) as Json).username, "waiting");
    assert.deepEqual(await visible(), [200, 200, 200, 200]);
  });

  it("rejecting deletes the account, its token and the staff's notification", async () => {
    const res = await signUp(server, appToken, person("unwanted", { reason: "spam" }));
    const { access_token: token }: Json = await res.json();
    await runAdminOperation(server.wren.ctx, "account.reject", { username: "unwanted" });
    const ctx = server.wren.ctx;
    assert.equal(await ctx.storage.accounts.findByUsername("unwanted", null), undefined);
    assert.equal(await ctx.storage.users.findByEmail("unwanted@mail.example"), undefined);
    const me = await server.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(me.status, 401);
    const list: Json = await (
      await server.request("/api/v1/notifications", { token: admin.token })
    ).json();
    assert.ok(!list.some((n: Json) => n.account.username === "unwanted"));
    // An approved account is not a sign-up to reject.
    await assert.rejects(
      runAdminOperation(ctx, "account.reject", { username: "waiting" }),
      /not waiting for approval/,
    );
    // The name is free again.
    const again = await signUp(server, appToken, person("unwanted", { reason: "sorry" }));
    assert.equal(again.status, 200);
  });

  it("the about page links to the sign-up page", async () => {
    const about = await (await server.request("/")).text();
    assert.match(about, /href="\/auth\/sign_up"/);
    const form = await server.request("/auth/sign_up");
    assert.equal(form.status, 200);
    assert.match(await form.text(), /Why do you want to join\?/);
  });

  it("an invite skips the approval and the reason", async () => {
    const { url } = await invite(server);
    const code = url.split("/invite/")[1];
    const res = await signUp(server, appToken, person("invited", { invite_code: code }));
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    const me = await server.request("/api/v1/accounts/verify_credentials", {
      token: body.access_token,
    });
    assert.equal(me.status, 200);
  });
});

describe("invites with WREN_REGISTRATIONS=closed", () => {
  let server: TestServer;
  let appToken: string;
  before(async () => {
    server = await startTestServer({ WREN_REGISTRATIONS: "closed" });
    appToken = (await createAppToken(server, ["read", "write", "follow"])).token;
  });
  after(() => server.close());

  it("lets the invite's holders in, up to its uses, exactly once each under concurrency", async () => {
    const { code } = await invite(server, { maxUses: 2 });
    const answers = await Promise.all(
      ["racer1", "racer2", "racer3", "racer4"].map((name) =>
        signUp(server, appToken, person(name, { invite_code: code })),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 403, 403]);
    const [listed] = (await runAdminOperation(
      server.wren.ctx,
      "invite.list",
      {},
    )) as InviteSummary[];
    assert.equal(listed?.uses, 2);
    assert.equal(listed?.usable, false);
  });

  it("refuses without an invite, with a bad one, and a revoked one", async () => {
    const none = await signUp(server, appToken, person("nobody"));
    assert.equal(none.status, 403);
    assert.deepEqual(await none.json(), { error: "This action is not allowed" });
    const bad = await signUp(server, appToken, person("nobody", { invite_code: "nope1234" }));
    assert.equal(bad.status, 403);
    const { code } = await invite(server);
    await runAdminOperation(server.wren.ctx, "invite.revoke", { code });
    const revoked = await signUp(server, appToken, person("nobody", { invite_code: code }));
    assert.equal(revoked.status, 403);
  });

  it("an invalid sign-up does not spend a use", async () => {
    const { code } = await invite(server, { maxUses: 1 });
    const bad = await signUp(server, appToken, person("x!", { invite_code: code }));
    assert.equal(bad.status, 422);
    const good = await signUp(server, appToken, person("second", { invite_code: code }));
    assert.equal(good.status, 200);
  });

  it("an expired invite is refused", async () => {
    const { code } = await invite(server, { expiresInMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await signUp(server, appToken, person("late", { invite_code: code }));
    assert.equal(res.status, 403);
  });

  it("autofollow makes the new account follow the inviter", async () => {
    const inviter = await createUserWithToken(server, "host");
    const { code } = await invite(server, { autofollow: true, by: "host" });
    const res = await signUp(server, appToken, person("guest", { invite_code: code }));
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    const rel = await server.request(`/api/v1/accounts/relationships?id[]=${inviter.account.id}`, {
      token: body.access_token,
    });
    const [relationship]: Json = await rel.json();
    assert.equal(relationship.following, true);
  });

  it("the sign-up page is closed without an invite, and open with one", async () => {
    const closed = await server.request("/auth/sign_up");
    assert.equal(closed.status, 403);
    assert.match(await closed.text(), /not taking new accounts/);
    assert.doesNotMatch(await (await server.request("/")).text(), /\/auth\/sign_up/);
    const { code } = await invite(server);
    const link = await server.request(`/invite/${code}`, { redirect: "manual" });
    assert.equal(link.status, 302);
    const form = await server.request(link.headers.get("location") as string);
    assert.equal(form.status, 200);
    const html = await form.text();
    assert.match(html, new RegExp(`name="invite_code" value="${code}"`));
    assert.doesNotMatch(html, /Why do you want to join/);
  });

  it("the instance endpoints say sign-ups are closed", async () => {
    const v2: Json = await (await server.request("/api/v2/instance")).json();
    assert.equal(v2.registrations.enabled, false);
    assert.equal(v2.registrations.approval_required, false);
    const v1: Json = await (await server.request("/api/v1/instance")).json();
    assert.equal(v1.registrations, false);
  });
});

describe("sign-up throttling", () => {
  it("counts the API's and the page's sign-ups per address, on the login limit", async () => {
    const server = await startTestServer({
      WREN_REGISTRATIONS: "open",
      WREN_LOGIN_RATE_LIMIT_REQUESTS: "2",
    });
    try {
      const { token } = await createAppToken(server, ["write"]);
      assert.equal((await signUp(server, token, person("first"))).status, 200);
      // A refused form counts too: attempts are limited, not successes.
      assert.equal((await signUp(server, token, person("bad name"))).status, 422);
      const third = await signUp(server, token, person("third"));
      assert.equal(third.status, 429);
      assert.deepEqual(await third.json(), { error: "Too many requests" });
      const page = await server.request("/auth/sign_up", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "username=fourth",
      });
      assert.equal(page.status, 429);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    } finally {
      await server.close();
    }
  });
});
