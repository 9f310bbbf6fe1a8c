// The settings pages in a real browser (headless Chromium): a signed-out visit leads to the
// sign-in page and back; the person signs in, adds an alias, uploads a CSV file and sees its
// import listed; then signs out. No script runs on these pages, and the browser reports no error.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createTestUser } from "../helpers/accounts.ts";
import { launchChromium, type TestBrowser } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { PASSWORD } from "../oauth/helpers.ts";

describe("the settings pages in a real browser", () => {
  let server: TestServer;
  let chromium: TestBrowser;
  let dir: string;

  before(async () => {
    chromium = await launchChromium();
    server = await startTestServer();
    dir = await mkdtemp(join(tmpdir(), "wren-browser-csv-"));
    await createTestUser(server, "alice");
    await createTestUser(server, "bob");
  });
  after(async () => {
    await chromium?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("signs in, adds an alias, uploads a CSV and signs out", async () => {
    const domain = new URL(server.url).host;
    const page = await chromium.context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });

    await page.goto(new URL("/settings/aliases", server.url).toString());
    await page.waitForURL(/\/auth\/sign_in\?return_to=/);
    await page.getByLabel("Email address or username").fill("alice");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/settings\/aliases$/);
    const cookies = await chromium.context.cookies(server.url);
    const session = cookies.find((c) => c.name === "wren_session");
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, "Lax");

    await page.getByLabel("Handle or address of the old account").fill(`bob@${domain}`);
    await page.getByRole("button", { name: "Add alias" }).click();
    await page.getByRole("status").waitFor();
    assert.match((await page.getByRole("status").textContent()) ?? "", /Added bob@/);
    assert.match((await page.getByRole("list", { name: "Aliases" }).textContent()) ?? "", /bob/);

    await page.getByRole("link", { name: "Import" }).click();
    await page.waitForURL(/\/settings\/import$/);
    const file = join(dir, "blocked_accounts.csv");
    await writeFile(file, `bob@${domain}\n`);
    await page.getByLabel("Import type").selectOption("blocks");
    await page.getByLabel("CSV file").setInputFiles(file);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByRole("status").waitFor();
    assert.match((await page.getByRole("status").textContent()) ?? "", /being imported: 1 rows/);
    assert.match(
      (await page.getByRole("list", { name: "Recent imports" }).textContent()) ?? "",
      /Blocking list \(merge\)/,
    );

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/sign_in$/);
    await page.goto(new URL("/settings/import", server.url).toString());
    await page.waitForURL(/\/auth\/sign_in\?return_to=/);
    assert.deepEqual(problems, []);
  });
});
