// The per-request limit on /api/*: counted per verified token, and per client address for
// requests whose token is missing or not valid, with a cap on how many callers it remembers.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const LIMIT = 5;

function registerApp(server: TestServer, token: string, from?: string): Promise<Response> {
  return server.request("/api/v1/apps", {
    method: "POST",
    token,
    headers: { "content-type": "application/json", ...(from ? { "x-forwarded-for": from } : {}) },
    body: JSON.stringify({ client_name: "flood", redirect_uris: "urn:ietf:wg:oauth:2.0:oob" }),
  });
}

describe("the API rate limit", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ WREN_RATE_LIMIT_REQUESTS: String(LIMIT) });
  });
  after(() => server.close());

  it("counts a new junk bearer per request against the client address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const res = await registerApp(server, `junk-${i}-${"x".repeat(200)}`);
      await res.body?.cancel();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [...Array(LIMIT).fill(200), 429]);
    // Every junk value shared the address's one counter: nothing was kept per token.
    assert.equal(server.wren.trackedCallers(), 1);
  });

  it("answers a refused request as Mastodon does", async () => {
    const res = await server.request("/api/v1/instance", { token: "yet-another-junk-token" });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("x-ratelimit-limit"), String(LIMIT));
    assert.equal(res.headers.get("x-ratelimit-remaining"), "0");
    assert.ok(!Number.isNaN(Date.parse(res.headers.get("x-ratelimit-reset") ?? "")));
    assert.deepEqual(await res.json(), { error: "Too many requests" });
  });

  it("gives a valid token its own budget, from the same address", async () => {
    const { token } = await createUserWithToken(server, "alice");
    const res = await server.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-ratelimit-remaining"), String(LIMIT - 1));
  });
});

describe("the API rate limit's memory", () => {
  const CAP = 4;
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      WREN_RATE_LIMIT_REQUESTS: "1000",
      WREN_RATE_LIMIT_MAX_TRACKED_KEYS: String(CAP),
    });
  });
  after(() => server.close());

  it("tracks no more callers than its cap, however many come", async () => {
    // The loopback peer is a trusted proxy, so each forwarded address is a caller of its own.
    for (let i = 1; i <= 30; i++) {
      const res = await server.request("/api/v1/instance", {
        headers: { "x-forwarded-for": `198.51.100.${i}` },
      });
      await res.body?.cancel();
      assert.equal(res.status, 200);
    }
    assert.equal(server.wren.trackedCallers(), CAP);
  });
});

describe("the per-user API limit", () => {
  const PER_USER = 4;
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      WREN_RATE_LIMIT_REQUESTS: "1000",
      WREN_ACCOUNT_RATE_LIMIT_REQUESTS: String(PER_USER),
    });
  });
  after(() => server.close());

  it("counts all of one user's tokens together", async () => {
    const alice = await createUserWithToken(server, "alice");
    const tokens = [alice.token];
    for (let i = 0; i < PER_USER; i++) {
      const { secret } = await issueAccessToken(server.wren.ctx, {
        app: alice.app,
        accountId: alice.account.id,
        scopes: ["read"],
        withRefreshToken: false,
      });
      tokens.push(secret);
    }
    const statuses: number[] = [];
    for (const token of tokens) {
      const res = await server.request("/api/v1/accounts/verify_credentials", { token });
      await res.body?.cancel();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [...Array(PER_USER).fill(200), 429]);
    const bob = await createUserWithToken(server, "bob");
    const res = await server.request("/api/v1/accounts/verify_credentials", { token: bob.token });
    assert.equal(res.status, 200);
  });
});
