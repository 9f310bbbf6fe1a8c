// A real, headless Chromium for tests of the HTML pages, driven by playwright-core. We use the
// system's Chromium (Debian's package; .ci/run installs it) and never let Playwright download a
// browser of its own. Each launch gets a fresh profile directory, removed on close.

import { access, constants, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** WREN_TEST_CHROMIUM points elsewhere, e.g. on a machine whose Chromium lives elsewhere. */
export const CHROMIUM_PATH = process.env.WREN_TEST_CHROMIUM ?? "/usr/bin/chromium";

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

async function assertChromiumPresent(): Promise<void> {
  try {
    await access(CHROMIUM_PATH, constants.X_OK);
  } catch {
    // Failing (not skipping) keeps a missing browser from passing as green.
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM_PATH}, which is missing. Install it with ` +
        "`apt-get update && apt-get install -y chromium` (Debian/Ubuntu; .ci/run does this), or " +
        "set WREN_TEST_CHROMIUM to the path of a Chromium or Chrome binary.",
    );
  }
}

export async function launchChromium(): Promise<TestBrowser> {
  await assertChromiumPresent();
  const profile = await mkdtemp(join(tmpdir(), "wren-chromium-"));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      viewport: { width: 1000, height: 800 },
    });
    return {
      context,
      async close() {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}
