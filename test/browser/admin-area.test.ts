// The admin area in a real browser (headless Chromium): a moderator, sent to the sign-in page
// and back, opens the reports queue, resolves a report and signs out; an admin then approves a
// pending sign-up. No script runs on these pages, and the browser reports no error.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isApproved } from "../../src/domain/user.ts";
import { fileReport } from "../../src/services/reports/file-report.ts";
import { createTestUser } from "../helpers/accounts.ts";
import { launchChromium, type TestBrowser } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { PASSWORD } from "../oauth/helpers.ts";

describe("the admin area in a real browser", () => {
  let server: TestServer;
  let chromium: TestBrowser;
  let reportId: string;
  let pendingId: string;

  before(async () => {
    chromium = await launchChromium();
    server = await startTestServer();
    const ctx = server.wren.ctx;
    const alice = await createTestUser(server, "alice");
    const bob = await createTestUser(server, "bob");
    await createTestUser(server, "mod", { role: "moderator" });
    await createTestUser(server, "boss", { role: "admin" });
    const carol = await createTestUser(server, "carol");
    await ctx.storage.users.put({ ...carol.user, approved: false });
    pendingId = carol.account.id;
    const { report } = await fileReport(ctx, {
      reporterId: alice.account.id,
      targetId: bob.account.id,
      statusIds: [],
      comment: "Sends spam",
      forward: false,
      forwardToDomains: [],
      category: "spam",
      ruleIds: [],
    });
    reportId = report.id;
  });
  after(async () => {
    await chromium?.close();
    await server?.close();
  });

  it("a moderator resolves a report, an admin approves a sign-up", async () => {
    const ctx = server.wren.ctx;
    const page = await chromium.context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    async function signIn(login: string) {
      await page.getByLabel("Email address or username").fill(login);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
    }

    await page.goto(new URL("/admin/reports", server.url).toString());
    await page.waitForURL(/\/auth\/sign_in\?return_to=/);
    await signIn("mod");
    await page.waitForURL(/\/admin\/reports$/);
    await page.getByRole("link", { name: `Report #${reportId}` }).click();
    await page.waitForURL(new RegExp(`/admin/reports/${reportId}$`));
    assert.match((await page.locator("main").textContent()) ?? "", /Sends spam/);
    await page.getByRole("button", { name: "Mark as resolved" }).click();
    await page.getByRole("status").waitFor();
    assert.match((await page.getByRole("status").textContent()) ?? "", /The report is resolved/);
    assert.ok((await ctx.storage.reports.get(reportId))?.actionTakenAt);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/sign_in$/);

    await page.goto(new URL("/admin/accounts", server.url).toString());
    await page.waitForURL(/\/auth\/sign_in\?return_to=/);
    await signIn("boss");
    await page.waitForURL(/\/admin\/accounts$/);
    await page.getByRole("button", { name: "Approve carol" }).click();
    await page.getByRole("status").waitFor();
    assert.match((await page.getByRole("status").textContent()) ?? "", /Approved the sign-up/);
    const user = await ctx.storage.users.get(pendingId);
    assert.ok(user && isApproved(user));
    assert.deepEqual(problems, []);
  });
});
