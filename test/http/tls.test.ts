// WREN_TLS_CERT / WREN_TLS_KEY: Wren serves HTTPS itself (peers look up acct: handles over HTTPS
// only, so instances federating in tests need it), and half a TLS setup is refused at start.

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/load.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { freePort, startTestServer, type TestServer } from "../helpers/server.ts";
import { TEST_TLS_ENV, trustTestCa } from "../helpers/tls.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.problems;
  }
  assert.fail("expected a ConfigError");
}

describe("TLS settings", () => {
  it("are both set or neither", () => {
    assert.deepEqual(problemsOf({ WREN_TLS_CERT: TEST_TLS_ENV.WREN_TLS_CERT as string }), [
      "WREN_TLS_KEY: required when WREN_TLS_CERT is set",
    ]);
    assert.deepEqual(problemsOf({ WREN_TLS_KEY: TEST_TLS_ENV.WREN_TLS_KEY as string }), [
      "WREN_TLS_CERT: required when WREN_TLS_KEY is set",
    ]);
    const config = loadConfig({ ...TEST_TLS_ENV });
    assert.equal(config.tlsCertFile, TEST_TLS_ENV.WREN_TLS_CERT);
    assert.equal(config.tlsKeyFile, TEST_TLS_ENV.WREN_TLS_KEY);
    assert.equal(loadConfig({}).tlsCertFile, undefined);
  });

  it("must name readable files", () => {
    const missing = join(import.meta.dirname, "no-such-key.pem");
    const problems = problemsOf({ ...TEST_TLS_ENV, WREN_TLS_KEY: missing });
    assert.equal(problems.length, 1);
    assert.match(
      problems[0] as string,
      /^WREN_TLS_KEY: cannot read .*no-such-key\.pem \(ENOENT\)$/,
    );
  });
});

describe("a server with WREN_TLS_CERT and WREN_TLS_KEY", () => {
  let server: TestServer;
  let port: number;
  before(async () => {
    trustTestCa();
    port = await freePort();
    server = await startTestServer(
      { ...TEST_TLS_ENV, WREN_PUBLIC_URL: `https://127.0.0.1:${port}` },
      { port },
    );
  });
  after(() => server.close());

  it("listens for HTTPS and answers the client API over TLS", async () => {
    assert.equal(server.wren.listenUrl, `https://127.0.0.1:${port}`);
    const { token } = await createUserWithToken(server, "tessa");
    const res = await fetch(`https://127.0.0.1:${port}/api/v1/accounts/verify_credentials`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { username: string }).username, "tessa");
  });

  it("answers WebFinger over HTTPS with https links, as peers look it up", async () => {
    await createUserWithToken(server, "wendy");
    const res = await fetch(
      `https://127.0.0.1:${port}/.well-known/webfinger?resource=acct:wendy@127.0.0.1:${port}`,
    );
    assert.equal(res.status, 200);
    const body = (await res.json()) as { links: { rel: string; href?: string }[] };
    const self = body.links.find((l) => l.rel === "self");
    assert.equal(self?.href, `https://127.0.0.1:${port}/users/wendy`);
  });

  it("does not speak plain HTTP on its port", async () => {
    await assert.rejects(fetch(`http://127.0.0.1:${port}/api/v1/instance`));
  });
});
