// `wren rule …` and `wren instance set|show|clear` as an operator runs them, through a running
// server's admin socket: what they change is what the server then answers.

import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

describe("wren rule and wren instance commands", () => {
  let server: TestServer;
  let env: Record<string, string>;
  before(async () => {
    server = await startTestServer({ WREN_RULES: "Be kind" });
    env = { WREN_DATA_DIR: server.dataDir, WREN_RULES: "Be kind" };
  });
  after(() => server.close());

  async function json(path: string) {
    const res = await server.request(path);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it("adds, lists and removes rules, starting from WREN_RULES", async () => {
    const added = await runWren(["rule", "add", "No spam", "--hint", "Ads too"], env);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stdout, "2\n");
    const list = await runWren(["rule", "list"], env);
    assert.equal(list.stdout, "1\tBe kind\t\n2\tNo spam\tAds too\n");
    const removed = await runWren(["rule", "remove", "1"], env);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual((await json("/api/v1/instance/rules")).body, [
      { id: "2", text: "No spam", hint: "Ads too" },
    ]);
    const missing = await runWren(["rule", "remove", "1"], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /No rule has the id 1/);
  });

  it("publishes documents from HTML or text files, shows and withdraws them", async () => {
    const html = join(server.dataDir, "about.html");
    await writeFile(html, "<p>About <b>us</b></p>\n");
    const set = await runWren(["instance", "set", "extended-description", html], env);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(
      (await json("/api/v1/instance/extended_description")).body.content,
      "<p>About <b>us</b></p>",
    );

    const text = join(server.dataDir, "privacy.txt");
    await writeFile(text, "We keep <little>.\n");
    assert.equal((await runWren(["instance", "set", "privacy-policy", text], env)).code, 0);
    const shown = await runWren(["instance", "show", "privacy-policy"], env);
    assert.equal(shown.stdout, "<p>We keep &lt;little&gt;.</p>\n");
    assert.equal((await json("/api/v1/instance/privacy_policy")).status, 200);
    assert.equal((await runWren(["instance", "clear", "privacy-policy"], env)).code, 0);
    assert.equal((await json("/api/v1/instance/privacy_policy")).status, 404);
    assert.equal((await runWren(["instance", "clear", "privacy-policy"], env)).code, 1);
  });

  it("publishes terms of service by effective date", async () => {
    const file = join(server.dataDir, "terms.txt");
    await writeFile(file, "Be good.");
    const args = ["instance", "set", "terms-of-service", file, "--effective-date", "2025-01-01"];
    assert.equal((await runWren(args, env)).code, 0);
    const list = await runWren(["instance", "show", "terms-of-service"], env);
    assert.match(list.stdout, /^2025-01-01\t\S+\n$/);
    const terms = await json("/api/v1/instance/terms_of_service");
    assert.equal(terms.body.effective_date, "2025-01-01");
    assert.equal(terms.body.content, "<p>Be good.</p>");
    const bad = await runWren([...args.slice(0, 4), "--effective-date", "soon"], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Not a date/);
    const noDate = await runWren(["instance", "clear", "terms-of-service"], env);
    assert.equal(noDate.code, 2);
    const clear = ["instance", "clear", "terms-of-service", "--effective-date", "2025-01-01"];
    assert.equal((await runWren(clear, env)).code, 0);
    assert.equal((await json("/api/v1/instance/terms_of_service")).status, 404);
  });

  it("refuses an unknown document, a missing file and a wrong format", async () => {
    const unknown = await runWren(["instance", "set", "faq", "x.txt"], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /DOCUMENT must be one of/);
    const missing = await runWren(["instance", "set", "privacy-policy", "/nonexistent.txt"], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /No such file/);
    const format = await runWren(
      ["instance", "set", "privacy-policy", "x.txt", "--format", "pdf"],
      env,
    );
    assert.equal(format.code, 2);
  });
});
