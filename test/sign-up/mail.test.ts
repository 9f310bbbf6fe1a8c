// The mails of sign-up against a real SMTP server on loopback: with WREN_SMTP_URL set, a new
// account cannot use the API until the link of its confirmation mail is opened; the mail can be
// sent again (to a new address) by the app that signed up; a forgotten password is reset with
// the single-use link of a mail, which signs the user out everywhere. Without SMTP, accounts are
// confirmed at once.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { createAppToken, createTestApp, createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { linkIn, startTestSmtp, type TestSmtp } from "../helpers/smtp.ts";
import { credentialsOf, registerApp } from "../oauth/helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the schemas
type Json = any;

function post(server: TestServer, path: string, token: string, body: Record<string, unknown>) {
  return server.request(path, {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const person = (name: string) => ({
  username: name,
  email: `${name}@mail.example`,
  password: "a long enough password",
  agreement: true,
});

/** A page's form fields and the CSRF cookie, as a browser would keep them. */
async function openForm(server: TestServer, path: string) {
  const res = await server.request(path);
  const html = await res.text();
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const token = /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  return { res, html, cookie, token };
}

function submit(server: TestServer, path: string, cookie: string, fields: Record<string, string>) {
  return server.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("sign-up mails with WREN_SMTP_URL", () => {
  let smtp: TestSmtp;
  let server: TestServer;
  let appToken: string;
  before(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({
      WREN_REGISTRATIONS: "open",
      WREN_SMTP_URL: smtp.url,
      WREN_SMTP_FROM: "Wren <noreply@wren.example>",
    });
    appToken = (await createAppToken(server, ["read", "write"])).token;
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  it("holds the account until the confirmation link is opened", async () => {
    const res = await post(server, "/api/v1/accounts", appToken, person("confirmme"));
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    const me = () =>
      server.request("/api/v1/accounts/verify_credentials", { token: body.access_token });
    const refused = await me();
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), {
      error: "Your login is missing a confirmed e-mail address",
    });

    const mail = await smtp.nextMailTo("confirmme@mail.example");
    assert.match(mail.raw, /^From: Wren <noreply@wren\.example>/m);
    const link = linkIn(mail, `${server.url}/auth/confirmation?`);
    const page = await fetch(link);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Email address confirmed/);
    assert.equal((await me()).status, 200);
    // The link is spent.
    assert.equal((await fetch(link)).status, 404);
  });

  it("resends the confirmation, to a new address, only for the app that signed up", async () => {
    const res = await post(server, "/api/v1/accounts", appToken, person("typo"));
    const { access_token: token }: Json = await res.json();
    await smtp.nextMailTo("typo@mail.example");

    // The same user, through another app.
    const account = await server.wren.ctx.storage.accounts.findByUsername("typo", null);
    const other = await issueAccessToken(server.wren.ctx, {
      app: await createTestApp(server, "Other"),
      accountId: account?.id ?? "",
      scopes: ["write"],
      withRefreshToken: false,
    });
    const strangerApp = await post(server, "/api/v1/emails/confirmations", other.secret, {});
    assert.equal(strangerApp.status, 403);
    assert.deepEqual(await strangerApp.json(), {
      error: "This method is only available to the application the user originally signed-up with",
    });

    const resend = await post(server, "/api/v1/emails/confirmations", token, {
      email: "fixed@mail.example",
    });
    assert.equal(resend.status, 200, await resend.clone().text());
    assert.deepEqual(await resend.json(), {});
    const mail = await smtp.nextMailTo("fixed@mail.example");
    const page = await fetch(linkIn(mail, `${server.url}/auth/confirmation?`));
    assert.equal(page.status, 200);
    const me = await server.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(me.status, 200);
    // Confirmed: nothing left to resend.
    const again = await post(server, "/api/v1/emails/confirmations", token, {});
    assert.equal(again.status, 403);
    assert.deepEqual(await again.json(), {
      error: "This method is only available while the e-mail is awaiting confirmation",
    });
  });

  it("resets a forgotten password with the mail's single-use link", async () => {
    const alice = await createUserWithToken(server, "alice");
    const form = await openForm(server, "/auth/password/new");
    assert.equal(form.res.status, 200);
    const asked = await submit(server, "/auth/password/new", form.cookie, {
      authenticity_token: form.token,
      email: "ALICE@mail.example",
    });
    assert.equal(asked.status, 200);
    // An unknown address gets the same answer (and no mail).
    const unknown = await submit(server, "/auth/password/new", form.cookie, {
      authenticity_token: form.token,
      email: "nobody@mail.example",
    });
    assert.equal(await unknown.text(), await asked.text());

    const mail = await smtp.nextMailTo("alice@mail.example");
    const link = linkIn(mail, `${server.url}/auth/password/edit?`);
    const edit = await openForm(server, link.slice(server.url.length));
    assert.equal(edit.res.status, 200);
    const resetToken = /name="reset_password_token" value="([^"]+)"/.exec(edit.html)?.[1] ?? "";

    const short = await submit(server, "/auth/password", edit.cookie, {
      authenticity_token: edit.token,
      reset_password_token: resetToken,
      password: "short",
    });
    assert.equal(short.status, 422);
    const done = await submit(server, "/auth/password", edit.cookie, {
      authenticity_token: edit.token,
      reset_password_token: resetToken,
      password: "a brand new password",
    });
    assert.equal(done.status, 200, await done.clone().text());
    // Signed out everywhere; the link is spent; the new password works.
    const me = await server.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    assert.equal(me.status, 401);
    const reuse = await submit(server, "/auth/password", edit.cookie, {
      authenticity_token: edit.token,
      reset_password_token: resetToken,
      password: "yet another password",
    });
    assert.equal(reuse.status, 404);
    assert.equal((await fetch(link)).status, 404);
    const app = await registerApp(server);
    const grant = await server.request("/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        grant_type: "password",
        ...credentialsOf(app),
        username: "alice@mail.example",
        password: "a brand new password",
        scope: "read",
      }),
    });
    assert.equal(grant.status, 200, await grant.clone().text());
  });

  it("refuses a form posted without its CSRF token", async () => {
    const res = await submit(server, "/auth/password/new", "", { email: "alice@mail.example" });
    assert.equal(res.status, 403);
  });
});

describe("a mail server that refuses at first", () => {
  it("gets the mail again from the job queue, whose link then works", async () => {
    const smtp = await startTestSmtp({ refuseFirst: 1 });
    let now = Date.now();
    const server = await startTestServer(
      { WREN_REGISTRATIONS: "open", WREN_SMTP_URL: smtp.url },
      { clock: { now: () => new Date(now) } },
    );
    try {
      const { token } = await createAppToken(server, ["read", "write"]);
      const res = await post(server, "/api/v1/accounts", token, person("patient"));
      assert.equal(res.status, 200);
      await smtp.refusals(1);
      assert.equal(smtp.mails.length, 0);
      // The refusal reaches the job a moment after the server sent it; the queue's first retry
      // is due ten seconds after that. Move the clock on until the retry has run.
      const delivered = smtp.nextMailTo("patient@mail.example");
      while (smtp.mails.length === 0) {
        now += 11_000;
        await server.wren.jobs.runDue();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const mail = await delivered;
      const page = await fetch(linkIn(mail, `${server.url}/auth/confirmation?`));
      assert.equal(page.status, 200);
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});

describe("without WREN_SMTP_URL", () => {
  it("confirms new accounts at once and offers no password reset", async () => {
    const server = await startTestServer({ WREN_REGISTRATIONS: "open" });
    try {
      const { token } = await createAppToken(server, ["read", "write"]);
      const res = await post(server, "/api/v1/accounts", token, person("instant"));
      const body: Json = await res.json();
      const me = await server.request("/api/v1/accounts/verify_credentials", {
        token: body.access_token,
      });
      assert.equal(me.status, 200);
      const reset = await server.request("/auth/password/new");
      assert.equal(reset.status, 404);
      assert.match(await reset.text(), /not available on this server/);
    } finally {
      await server.close();
    }
  });
});
