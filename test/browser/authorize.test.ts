// The OAuth sign-in and consent page in a real browser (headless Chromium): what a person sees,
// the form's own browser behaviour (required fields, Enter submits Authorize, the stylesheet
// allowed by the CSP), then the redirect back to the app, the code exchange with PKCE and a call
// with the token.

import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { launchChromium, type TestBrowser } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  authorizePath,
  createUser,
  exchangeCode,
  OOB,
  PASSWORD,
  pkcePair,
  type RegisteredApp,
  readJson,
  registerApp,
  type TokenJson,
} from "../oauth/helpers.ts";

const APP_NAME = "Wren Browser Test";
const SCREENSHOTS = "/tmp/wren-authorize";

/** The app's side of the redirect: a tiny HTTP server that records where the browser landed. */
async function startCallbackServer(): Promise<{ url: string; hits: URL[]; server: Server }> {
  const hits: URL[] = [];
  const server = createServer((req, res) => {
    hits.push(new URL(req.url ?? "/", "http://127.0.0.1"));
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>Back in the app</title><h1>Back in the app</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, hits, server };
}

describe("the authorize page in a real browser", () => {
  let server: TestServer;
  let chromium: TestBrowser;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let app: RegisteredApp;
  let page: Page;
  /** Content-Security-Policy reports and page errors: a clean page has none. */
  let problems: string[];

  before(async () => {
    chromium = await launchChromium();
    server = await startTestServer();
    callback = await startCallbackServer();
    await createUser(server, "alice");
    app = await registerApp(server, {
      client_name: APP_NAME,
      redirect_uris: [callback.url, OOB],
      website: "https://browser-test.example",
    });
  });
  after(async () => {
    await chromium?.close();
    await server?.close();
    if (callback) await new Promise((resolve) => callback.server.close(resolve));
  });
  beforeEach(async () => {
    for (const open of chromium.context.pages()) await open.close();
    await chromium.context.clearCookies();
    page = await chromium.context.newPage();
    problems = [];
    page.on("console", (message) => {
      // The browser logs the 401 of a refused sign-in as a failed load; that one is intended.
      const text = message.text();
      if (message.type() === "error" && !/status of 401\b/.test(text)) problems.push(text);
    });
    page.on("pageerror", (error) => problems.push(error.message));
  });

  function authorizeUrl(params: Record<string, string>): string {
    return new URL(
      authorizePath({ client_id: app.client_id, response_type: "code", ...params }),
      server.url,
    ).toString();
  }

  it("shows the app and scopes, refuses a wrong password, then hands the code to the app", async () => {
    const { verifier, challenge } = pkcePair();
    const response = await page.goto(
      authorizeUrl({
        redirect_uri: callback.url,
        scope: "read write:statuses profile",
        state: "state-1",
        code_challenge: challenge,
        code_challenge_method: "S256",
      }),
    );
    assert.equal(response?.status(), 200);
    assert.equal(await page.title(), `Authorize ${APP_NAME}`);
    assert.equal(
      await page.getByRole("heading", { level: 1 }).textContent(),
      `Authorize ${APP_NAME}?`,
    );
    const intro = await page.locator("main > p").first().textContent();
    assert.match(
      intro ?? "",
      /Wren Browser Test \(browser-test\.example\) asks to use your account/,
    );
    const scopes = await page
      .getByRole("list", { name: /will be able to/ })
      .locator("li")
      .all();
    assert.deepEqual(await Promise.all(scopes.map((li) => li.textContent())), [
      "Read all your account's data read",
      "Change your statuses write:statuses",
      "Read only your account's profile information profile",
    ]);
    // The stylesheet is applied (its CSP hash matches): the card has its 28rem width.
    assert.equal((await page.locator("main").boundingBox())?.width, 448);
    await page.screenshot({ path: `${SCREENSHOTS}-form.png`, fullPage: true });

    // Required fields: the browser does not send the form without a password.
    await page.getByLabel("Email address or username").fill("alice");
    await page.getByRole("button", { name: "Authorize" }).click();
    assert.equal(await page.locator("#password:invalid").count(), 1);
    assert.equal(await page.locator("[role=alert]").count(), 0, "nothing was submitted");

    await page.getByLabel("Password").fill("wrong password");
    await Promise.all([
      page.waitForURL(/\/oauth\/authorize$/),
      page.getByRole("button", { name: "Authorize" }).click(),
    ]);
    assert.equal(
      await page.getByRole("alert").textContent(),
      "Invalid email or password.",
      "the error is announced",
    );
    assert.equal(await page.getByLabel("Email address or username").inputValue(), "alice");
    assert.equal(await page.getByLabel("Password").inputValue(), "", "the password is not echoed");
    await page.screenshot({ path: `${SCREENSHOTS}-error.png`, fullPage: true });

    // Enter in the password field submits with the first button, Authorize.
    await page.getByLabel("Password").fill(PASSWORD);
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(callback.url)),
      page.getByLabel("Password").press("Enter"),
    ]);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Back in the app");
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get("state"), "state-1");
    const code = landed.searchParams.get("code");
    assert.ok(code);
    const arrived = callback.hits.filter((hit) => hit.pathname === "/callback");
    assert.equal(arrived.at(-1)?.searchParams.get("code"), code, "the app's server got the code");

    const tokenRes = await exchangeCode(server, code, {
      client_id: app.client_id,
      redirect_uri: callback.url,
      code_verifier: verifier,
    });
    assert.equal(tokenRes.status, 200);
    const token = await readJson<TokenJson>(tokenRes);
    assert.equal(token.scope, "read write:statuses profile");
    const me = await server.request("/api/v1/accounts/verify_credentials", {
      token: token.access_token,
    });
    assert.equal(me.status, 200);
    assert.equal((await readJson<{ username: string }>(me)).username, "alice");
    assert.deepEqual(problems, []);
  });

  it("fits a phone screen and sends access_denied back when the person presses Deny", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(authorizeUrl({ redirect_uri: callback.url, scope: "read", state: "s2" }));
    // Evaluated as a string: the tests are type-checked without the DOM library.
    const widths = (await page.evaluate(
      "[document.documentElement.scrollWidth, window.innerWidth]",
    )) as [number, number];
    assert.equal(widths[0], widths[1], "nothing sticks out sideways");
    const box = await page.locator("main").boundingBox();
    assert.ok(box && box.x >= 8 && box.x + box.width <= 352, "the card keeps a margin");
    await page.screenshot({ path: `${SCREENSHOTS}-phone.png`, fullPage: true });

    // Deny needs no credentials: the empty required fields do not hold it back.
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(callback.url)),
      page.getByRole("button", { name: "Deny" }).click(),
    ]);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get("error"), "access_denied");
    assert.equal(landed.searchParams.get("state"), "s2");
    assert.equal(landed.searchParams.has("code"), false);
    assert.deepEqual(problems, []);
  });

  it("shows the code on a page for the out-of-band redirect URI", async () => {
    await page.goto(authorizeUrl({ redirect_uri: OOB, scope: "read" }));
    await page.getByLabel("Email address or username").fill("alice@mail.example");
    await page.getByLabel("Password").fill(PASSWORD);
    await Promise.all([
      page.waitForURL(/\/oauth\/authorize$/),
      page.getByRole("button", { name: "Authorize" }).click(),
    ]);
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Authorization code");
    await page.screenshot({ path: `${SCREENSHOTS}-code.png`, fullPage: true });
    const code = (await page.locator("#authorization-code").textContent()) ?? "";
    assert.ok(code.length >= 40);

    const tokenRes = await exchangeCode(server, code, {
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: OOB,
    });
    assert.equal(tokenRes.status, 200);
    const token = await readJson<TokenJson>(tokenRes);
    const verify = await server.request("/api/v1/apps/verify_credentials", {
      token: token.access_token,
    });
    assert.equal(verify.status, 200);
    assert.deepEqual(problems, []);
  });
});
