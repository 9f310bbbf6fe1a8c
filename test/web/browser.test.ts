// The profile and status pages in a real browser (headless Chromium): no console errors and no
// CSP violations (the stylesheet is allowed by its hash, every image origin by the policy), the
// text a reader sees, and every image actually loaded. Screenshots go to /tmp/wren-web-pages.

import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { after, before, beforeEach, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { launchChromium, type TestBrowser } from "../helpers/browser.ts";
import { ALT_TEXT, startWebFixture, type WebFixture } from "./fixtures.ts";

const SCREENSHOTS = "/tmp/wren-web-pages";

describe("public web pages in a real browser", () => {
  let f: WebFixture;
  let chromium: TestBrowser;
  let page: Page;
  let problems: string[];

  before(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    chromium = await launchChromium();
    f = await startWebFixture();
  });
  after(async () => {
    await chromium?.close();
    await f?.server.close();
  });
  beforeEach(async () => {
    for (const open of chromium.context.pages()) await open.close();
    page = await chromium.context.newPage();
    problems = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()}`));
  });

  /** Every <img> has loaded and has pixels (a CSP block or a 404 leaves naturalWidth 0). */
  async function assertImagesLoaded(): Promise<number> {
    // Run in the page (a string: the test code is type-checked without the DOM library).
    const images = (await page.evaluate(`[...document.images].map((img) => ({
      src: img.currentSrc || img.src,
      ok: img.complete && img.naturalWidth > 0,
    }))`)) as { src: string; ok: boolean }[];
    for (const image of images) assert.ok(image.ok, `image did not load: ${image.src}`);
    return images.length;
  }

  /** Lazy images load only near the viewport: scroll through the page first. */
  async function scrollThrough(): Promise<void> {
    await page.evaluate(`(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 400) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      window.scrollTo(0, 0);
    })()`);
    await page.waitForLoadState("networkidle");
  }

  it("shows a profile with its images, name, bio and posts", async () => {
    const res = await page.goto(`${f.server.url}/@alice`);
    assert.equal(res?.status(), 200);
    await scrollThrough();
    // The hostile display name is shown as text, never run.
    await assert.doesNotReject(page.getByRole("heading", { level: 1 }).waitFor());
    const heading = await page.getByRole("heading", { level: 1 }).textContent();
    assert.match(heading ?? "", /^<script>x\(""\)<\/script>/);
    assert.equal(await page.evaluate("document.scripts.length"), 0);
    assert.ok(await page.getByText("Birds & code").isVisible());
    assert.ok(await page.getByText("Hello <world>").isVisible());
    assert.ok(await page.getByText("Quiet unlisted post").isVisible());
    // The content warning hides its text until opened.
    assert.ok(await page.getByText("Birds ahead").isVisible());
    assert.equal(await page.getByText("Hidden text").isVisible(), false);
    await page.getByText("Birds ahead").click();
    assert.ok(await page.getByText("Hidden text").isVisible());
    // Header, avatar, the emojis and the picture all load under the page's CSP.
    assert.ok((await assertImagesLoaded()) >= 5);
    // The header spans the card; the avatar sits on it.
    const header = await page.locator("img.header").boundingBox();
    assert.ok(header && header.width > 500 && Math.abs(header.width / header.height - 3) < 0.1);
    await page.screenshot({ path: `${SCREENSHOTS}/profile.png`, fullPage: true });
    assert.deepEqual(problems, []);
  });

  it("shows a status page with its picture, alt text and counters", async () => {
    const res = await page.goto(`${f.server.url}/@alice/${f.ids.picture}`);
    assert.equal(res?.status(), 200);
    await page.waitForLoadState("networkidle");
    assert.ok(await page.getByText("A picture").isVisible());
    assert.ok(await page.getByAltText(ALT_TEXT).isVisible());
    assert.ok(await page.getByText(/0\s+favourites/).isVisible());
    // The avatar, the emoji in the display name and the picture.
    assert.equal(await assertImagesLoaded(), 3);
    await page.screenshot({ path: `${SCREENSHOTS}/status.png`, fullPage: true });
    assert.deepEqual(problems, []);
  });

  it("shows poll results and a narrow-screen layout without overflow", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const res = await page.goto(`${f.server.url}/@alice/${f.ids.poll}`);
    assert.equal(res?.status(), 200);
    await page.waitForLoadState("networkidle");
    assert.ok(await page.getByText("100%").isVisible());
    const overflow = await page.evaluate(
      "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    assert.equal(overflow, 0);
    await page.screenshot({ path: `${SCREENSHOTS}/poll-narrow.png`, fullPage: true });
    assert.deepEqual(problems, []);
  });

  it("shows a 410 page for a deleted status", async () => {
    const res = await page.goto(`${f.server.url}/@alice/${f.ids.deleted}`);
    assert.equal(res?.status(), 410);
    assert.ok(await page.getByText("This post has been deleted.").isVisible());
    // The browser reports the 410 document itself as a failed load; nothing else may fail.
    assert.deepEqual(
      problems.filter((p) => !/status of 410\b/.test(p)),
      [],
    );
  });

  it("shows the about page and a hashtag page with their images", async () => {
    const about = await page.goto(`${f.server.url}/`);
    assert.equal(about?.status(), 200);
    await page.waitForLoadState("networkidle");
    assert.equal(await page.getByRole("heading", { level: 1 }).textContent(), "Wren Test");
    assert.ok(await page.getByRole("heading", { name: "Sign in" }).isVisible());
    await page.screenshot({ path: `${SCREENSHOTS}/about.png`, fullPage: true });
    const tag = await page.goto(`${f.server.url}/tags/birds`);
    assert.equal(tag?.status(), 200);
    await scrollThrough();
    assert.ok(await page.getByText("Hello <world>").isVisible());
    // The author's avatar and the custom emoji load under the page's CSP.
    assert.ok((await assertImagesLoaded()) >= 2);
    await page.screenshot({ path: `${SCREENSHOTS}/tag.png`, fullPage: true });
    assert.deepEqual(problems, []);
  });
});
