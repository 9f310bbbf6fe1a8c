// The admin area over real HTTP, signed in through the web session: anonymous browsers go to the
// sign-in page, a user gets 403 pages, a moderator works the reports queue (assign, resolve,
// reopen) and limits and suspends an account (not an admin's) but may not open the server
// settings, an admin approves and rejects sign-ups, blocks
// and unblocks a domain, adds a rule and publishes the about text; a form without the session's
// CSRF token is refused.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isApproved } from "../../src/domain/user.ts";
import { fileReport } from "../../src/services/reports/file-report.ts";
import { createTestUser, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { Browser, PASSWORD, parseForm, UNTHROTTLED_LOGINS } from "../oauth/helpers.ts";

describe("the admin area", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let reportId: string;

  async function signedIn(username: string): Promise<Browser> {
    const b = new Browser(server);
    const form = parseForm(await (await b.get("/auth/sign_in")).text());
    const res = await b.postForm("/auth/sign_in", {
      ...form.fields,
      login: username,
      password: PASSWORD,
    });
    assert.equal(res.status, 303);
    return b;
  }

  /** Posts to `action` with the CSRF token of `page`. */
  async function submit(b: Browser, page: string, action: string, fields = {}) {
    const html = await (await b.get(page)).text();
    const token = /name="authenticity_token" value="([^"]+)"/.exec(html)?.[1] as string;
    return b.postForm(action, { authenticity_token: token, ...fields });
  }

  before(async () => {
    server = await startTestServer(UNTHROTTLED_LOGINS);
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    await createTestUser(server, "mod", { role: "moderator" });
    await createTestUser(server, "boss", { role: "admin" });
    const posted = await server.request("/api/v1/statuses", {
      method: "POST",
      headers: { authorization: `Bearer ${bob.token}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "Buy cheap <watches>" }),
    });
    const status = (await posted.json()) as { id: string };
    const { report } = await fileReport(server.wren.ctx, {
      reporterId: alice.account.id,
      targetId: bob.account.id,
      statusIds: [status.id],
      comment: "spam & more",
      forward: false,
      forwardToDomains: [],
      category: "spam",
      ruleIds: [],
    });
    reportId = report.id;
  });
  after(() => server?.close());

  it("sends an anonymous browser to the sign-in page and back", async () => {
    const res = await new Browser(server).get("/admin/reports?resolved=1");
    assert.equal(res.status, 303);
    assert.equal(
      res.headers.get("location"),
      `/auth/sign_in?return_to=${encodeURIComponent("/admin/reports?resolved=1")}`,
    );
    assert.equal((await new Browser(server).get("/admin")).status, 303);
  });

  it("refuses a user with 403 pages and shows them no link to it", async () => {
    const b = await signedIn("alice");
    for (const path of ["/admin", "/admin/reports", "/admin/accounts", "/admin/settings"]) {
      const res = await b.get(path);
      assert.equal(res.status, 403, path);
      assert.match(await res.text(), /Your role does not allow this page/);
    }
    const posted = await submit(b, "/settings/aliases", `/admin/reports/${reportId}/resolve`);
    assert.equal(posted.status, 403);
    assert.equal((await server.wren.ctx.storage.reports.get(reportId))?.actionTakenAt, null);
    assert.doesNotMatch(await (await b.get("/settings/aliases")).text(), /href="\/admin"/);
  });

  it("lets a moderator work the reports queue, not the server settings", async () => {
    const b = await signedIn("mod");
    assert.match(await (await b.get("/settings/aliases")).text(), /href="\/admin"/);
    const dashboard = await (await b.get("/admin")).text();
    assert.match(dashboard, /class="count-open-reports">1</);
    assert.doesNotMatch(dashboard, /href="\/admin\/settings"/);
    assert.equal((await b.get("/admin/settings")).status, 403);
    assert.equal((await b.get("/admin/domain_blocks")).status, 403);

    const queue = await (await b.get("/admin/reports")).text();
    assert.ok(queue.includes(`href="/admin/reports/${reportId}"`));
    const page = `/admin/reports/${reportId}`;
    const shown = await (await b.get(page)).text();
    assert.match(shown, /Buy cheap &lt;watches&gt;/);
    assert.match(shown, /spam &amp; more/);
    assert.match(shown, /<dd>alice<\/dd>/);

    const assigned = await submit(b, page, `${page}/assign_to_self`);
    assert.equal(assigned.status, 200);
    assert.match(await assigned.text(), /Assigned to<\/dt><dd>mod</);
    const resolved = await submit(b, page, `${page}/resolve`);
    assert.equal(resolved.status, 200);
    assert.match(await resolved.text(), /Resolved .* by mod/);
    const stored = await server.wren.ctx.storage.reports.get(reportId);
    assert.ok(stored?.actionTakenAt);
    assert.doesNotMatch(await (await b.get("/admin/reports")).text(), /Report #/);
    assert.match(await (await b.get("/admin/reports?resolved=1")).text(), /Report #/);

    const reopened = await submit(b, page, `${page}/reopen`);
    assert.match(await reopened.text(), /class="report-state">Open</);
    assert.equal((await submit(b, page, "/admin/reports/999999/resolve")).status, 404);
  });

  it("refuses a form without the session's CSRF token", async () => {
    const b = await signedIn("mod");
    const res = await b.postForm(`/admin/reports/${reportId}/resolve`, {
      authenticity_token: "forged",
    });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /The form has expired/);
    assert.equal((await server.wren.ctx.storage.reports.get(reportId))?.actionTakenAt, null);
  });

  it("lets an admin approve and reject sign-ups, block a domain and change rules and texts", async () => {
    const ctx = server.wren.ctx;
    const carol = await createTestUser(server, "carol");
    await ctx.storage.users.put({ ...carol.user, approved: false, signUpReason: "I like birds" });
    const dan = await createTestUser(server, "dan");
    await ctx.storage.users.put({ ...dan.user, approved: false });
    const b = await signedIn("boss");
    assert.match(await (await b.get("/admin")).text(), /class="count-pending-sign-ups">2</);
    const list = await (await b.get("/admin/accounts")).text();
    // Pending sign-ups first, oldest first, with their reason.
    assert.ok(list.indexOf("carol") < list.indexOf("dan"));
    assert.ok(list.indexOf("dan") < list.indexOf("alice"));
    assert.match(list, /Reason: I like birds/);

    const approved = await submit(
      b,
      "/admin/accounts",
      `/admin/accounts/${carol.account.id}/approve`,
    );
    assert.equal(approved.status, 200);
    assert.match(await approved.text(), /Approved the sign-up of carol/);
    assert.ok(isApproved((await ctx.storage.users.get(carol.account.id)) ?? carol.user));
    const again = await submit(b, "/admin/accounts", `/admin/accounts/${carol.account.id}/approve`);
    assert.equal(again.status, 422);
    const rejected = await submit(b, "/admin/accounts", `/admin/accounts/${dan.account.id}/reject`);
    assert.equal(rejected.status, 200);
    assert.equal(await ctx.storage.accounts.get(dan.account.id), undefined);

    const blocked = await submit(b, "/admin/domain_blocks", "/admin/domain_blocks", {
      domain: "Spam.Example.",
    });
    assert.match(await blocked.text(), /Suspended spam\.example: 0 follows ended/);
    const bad = await submit(b, "/admin/domain_blocks", "/admin/domain_blocks", {
      domain: "https://x/y",
    });
    assert.equal(bad.status, 422);
    const limited = await submit(b, "/admin/domain_blocks", "/admin/domain_blocks", {
      domain: "loud.example",
      severity: "silence",
      reject_media: "1",
    });
    assert.match(
      await limited.text(),
      /<code>loud\.example<\/code> <span class="block-severity">Limit, media rejected</,
    );
    const unknown = await submit(b, "/admin/domain_blocks", "/admin/domain_blocks", {
      domain: "odd.example",
      severity: "banish",
    });
    assert.equal(unknown.status, 422);
    const unblocked = await submit(b, "/admin/domain_blocks", "/admin/domain_blocks/remove", {
      domain: "spam.example",
    });
    assert.match(await unblocked.text(), /Unblocked spam\.example/);

    const rule = await submit(b, "/admin/rules", "/admin/rules", { text: "Be kind", hint: "" });
    assert.match(await rule.text(), /<li>Be kind/);
    const empty = await submit(b, "/admin/rules", "/admin/rules", { text: " " });
    assert.equal(empty.status, 422);

    const about = await submit(
      b,
      "/admin/settings",
      "/admin/settings/documents/extended-description",
      { text: "We are birds.", format: "text" },
    );
    assert.equal(about.status, 200);
    const instance = (await (
      await server.request("/api/v1/instance/extended_description")
    ).json()) as {
      content: string;
    };
    assert.match(instance.content, /We are birds\./);
  });

  it("lets a moderator limit and suspend an account and lift both, not act on an admin", async () => {
    const b = await signedIn("mod");
    const accounts = "/admin/accounts";
    const limited = await submit(b, accounts, `${accounts}/${bob.account.id}/silence`);
    assert.equal(limited.status, 200);
    const limitedPage = await limited.text();
    assert.match(limitedPage, /bob is limited/);
    assert.match(limitedPage, /class="account-state">limited</);
    const stored = () => server.wren.ctx.storage.accounts.get(bob.account.id);
    assert.ok((await stored())?.silencedAt);
    // Offered only when it applies: limiting twice is refused, lifting is offered instead.
    assert.equal((await submit(b, accounts, `${accounts}/${bob.account.id}/silence`)).status, 422);
    const lifted = await submit(b, accounts, `${accounts}/${bob.account.id}/unsilence`);
    assert.equal(lifted.status, 200);
    assert.equal((await stored())?.silencedAt, undefined);

    const suspended = await submit(b, accounts, `${accounts}/${bob.account.id}/suspend`);
    assert.equal(suspended.status, 200);
    assert.equal((await stored())?.suspended, true);
    // Shown as suspended (Mastodon's entity), its profile emptied.
    const gone = await server.request(`/api/v1/accounts/${bob.account.id}`);
    assert.equal(gone.status, 200);
    assert.equal(((await gone.json()) as { suspended?: boolean }).suspended, true);
    assert.equal(
      (await submit(b, accounts, `${accounts}/${bob.account.id}/unsuspend`)).status,
      200,
    );
    assert.equal((await stored())?.suspended, undefined);

    // An admin outranks a moderator: the service refuses, the page says so.
    const boss = await server.wren.ctx.storage.accounts.findByUsername("boss", null);
    const refused = await submit(b, accounts, `${accounts}/${boss?.id}/silence`);
    assert.equal(refused.status, 403);
    assert.equal(
      (await server.wren.ctx.storage.accounts.get(boss?.id ?? ""))?.silencedAt,
      undefined,
    );
  });
});
