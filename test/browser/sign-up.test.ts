// The sign-up page in a real browser (headless Chromium), in approval mode: the sign-in page
// links to it; the form shows the rules and asks for a reason; the browser's own checks hold
// back an empty form; a taken name comes back with the field's message and the typed values
// kept; a good form creates a pending account. An invite link leads to the same form without
// the reason, and its account is let in at once.

import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { runAdminOperation } from "../../src/admin/operations.ts";
import type { InviteSummary } from "../../src/admin/operations-sign-ups.ts";
import { isApproved } from "../../src/domain/user.ts";
import { launchChromium, type TestBrowser } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { authorizePath, createUser, OOB, registerApp } from "../oauth/helpers.ts";

describe("the sign-up page in a real browser", () => {
  let server: TestServer;
  let chromium: TestBrowser;
  let page: Page;
  let problems: string[];

  before(async () => {
    chromium = await launchChromium();
    server = await startTestServer({
      WREN_REGISTRATIONS: "approval",
      WREN_RULES: "Be kind",
    });
    await createUser(server, "taken");
  });
  after(async () => {
    await chromium?.close();
    await server?.close();
  });
  beforeEach(async () => {
    for (const open of chromium.context.pages()) await open.close();
    await chromium.context.clearCookies();
    page = await chromium.context.newPage();
    problems = [];
    page.on("console", (message) => {
      // Refused forms answer 4xx on purpose; the browser logs those loads.
      const text = message.text();
      if (message.type() === "error" && !/status of 4\d\d\b/.test(text)) problems.push(text);
    });
    page.on("pageerror", (error) => problems.push(error.message));
  });

  async function fill(values: Record<string, string>) {
    for (const [label, value] of Object.entries(values)) {
      await page.getByLabel(label, { exact: true }).fill(value);
    }
  }

  it("is linked from the sign-in page, checks the form and creates a pending account", async () => {
    const app = await registerApp(server, { redirect_uris: [OOB] });
    await page.goto(
      new URL(
        authorizePath({ client_id: app.client_id, response_type: "code", redirect_uri: OOB }),
        server.url,
      ).toString(),
    );
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL(/\/auth\/sign_up$/);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Create an account");
    const rules = await page.getByRole("list", { name: /Rules of/ }).textContent();
    assert.match(rules ?? "", /Be kind/);

    // The browser refuses to send an empty form (required fields).
    await page.getByRole("button", { name: "Sign up" }).click();
    assert.match(page.url(), /\/auth\/sign_up$/);
    assert.equal(
      await page
        .getByLabel("Username")
        .evaluate((e) => (e as unknown as { validity: { valid: boolean } }).validity.valid),
      false,
    );

    await fill({
      Username: "Taken",
      "Email address": "newcomer@mail.example",
      Password: "a long enough password",
      "Why do you want to join?": "I know the admin",
    });
    await page.getByLabel(/I agree to the rules/).check();
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForLoadState();
    assert.match((await page.locator("#username-error").textContent()) ?? "", /already been taken/);
    assert.equal(await page.getByLabel("Email address").inputValue(), "newcomer@mail.example");
    assert.equal(
      await page.getByLabel("Why do you want to join?").inputValue(),
      "I know the admin",
    );

    await fill({ Username: "newcomer", Password: "a long enough password" });
    await page.getByLabel(/I agree to the rules/).check();
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForLoadState();
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Welcome, newcomer!");
    assert.match((await page.locator("main").textContent()) ?? "", /staff will review/);

    const ctx = server.wren.ctx;
    const account = await ctx.storage.accounts.findByUsername("newcomer", null);
    const user = account ? await ctx.storage.users.get(account.id) : undefined;
    assert.ok(user);
    assert.equal(isApproved(user), false);
    assert.equal(user.signUpReason, "I know the admin");
    assert.deepEqual(problems, []);
  });

  it("an invite link signs up without a reason, approved at once", async () => {
    const invite = (await runAdminOperation(server.wren.ctx, "invite.create", {
      maxUses: 1,
    })) as InviteSummary;
    await page.goto(invite.url);
    await page.waitForURL(/\/auth\/sign_up\?invite_code=/);
    assert.match((await page.locator("main").textContent()) ?? "", /You were invited/);
    assert.equal(await page.getByLabel("Why do you want to join?").count(), 0);
    await fill({
      Username: "friend",
      "Email address": "friend@mail.example",
      Password: "a long enough password",
    });
    await page.getByLabel(/I agree to the rules/).check();
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.waitForLoadState();
    assert.match((await page.locator("main").textContent()) ?? "", /You can sign in now/);
    const ctx = server.wren.ctx;
    const account = await ctx.storage.accounts.findByUsername("friend", null);
    const user = account ? await ctx.storage.users.get(account.id) : undefined;
    assert.ok(user && isApproved(user));

    // Used up: the link is an ordinary sign-up again, which waits for approval.
    await page.goto(invite.url);
    assert.doesNotMatch((await page.locator("main").textContent()) ?? "", /You were invited/);
    assert.equal(await page.getByLabel("Why do you want to join?").count(), 1);
    assert.deepEqual(problems, []);
  });
});
