// Cross-cutting HTTP behaviour of a real server: error bodies, body limits, CORS, request ids and
// rate limits.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("HTTP foundation", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      WREN_BODY_LIMIT_BYTES: "1024",
      WREN_RATE_LIMIT_REQUESTS: "1000",
    });
  });
  after(() => server.close());

  it("answers unknown routes with a JSON 404", async () => {
    const res = await server.request("/api/v1/no-such-thing");
    assert.equal(res.status, 404);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.deepEqual(await res.json(), { error: "Record not found" });
  });

  it("refuses bodies over the limit with 413, with or without Content-Length", async () => {
    const big = JSON.stringify({ client_name: "x".repeat(4096) });
    const declared = await server.request("/api/v1/apps", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    });
    assert.equal(declared.status, 413);
    assert.deepEqual(await declared.json(), { error: "Request entity too large" });

    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 512) controller.enqueue(bytes.slice(i, i + 512));
        controller.close();
      },
    });
    const chunked = await server.request("/api/v1/apps", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    assert.equal(chunked.status, 413);
  });

  it("allows cross-origin API calls as Mastodon does", async () => {
    const preflight = await server.request("/api/v1/accounts/verify_credentials", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    assert.ok(preflight.status === 204 || preflight.status === 200);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
    assert.match(preflight.headers.get("access-control-allow-headers") ?? "", /authorization/i);
    // Any header a web app asks for, as Mastodon's `headers: :any` (tracing headers, its own).
    const traced = await server.request("/api/v1/timelines/home", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,baggage,sentry-trace",
      },
    });
    assert.equal(
      traced.headers.get("access-control-allow-headers"),
      "authorization,baggage,sentry-trace",
    );
    const garbled = await server.request("/api/v1/timelines/home", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-headers": "a b;c" },
    });
    assert.equal(
      garbled.headers.get("access-control-allow-headers"),
      "Authorization,Content-Type,Idempotency-Key,Accept",
    );

    const res = await server.request("/api/v1/no-such-thing", {
      headers: { origin: "https://app.example" },
    });
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.match(res.headers.get("access-control-expose-headers") ?? "", /Link/);
    // Browser clients read it to learn a report is being generated (annual reports).
    assert.match(res.headers.get("access-control-expose-headers") ?? "", /Mastodon-Async-Refresh/);
  });

  it("gives every answer a request id, keeping a sane incoming one", async () => {
    const fresh = await server.request("/api/v1/no-such-thing");
    assert.match(fresh.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
    const kept = await server.request("/api/v1/no-such-thing", {
      headers: { "x-request-id": "proxy-id-12345" },
    });
    assert.equal(kept.headers.get("x-request-id"), "proxy-id-12345");
    const replaced = await server.request("/api/v1/no-such-thing", {
      headers: { "x-request-id": "bad id\twith spaces" },
    });
    assert.notEqual(replaced.headers.get("x-request-id"), "bad id\twith spaces");
  });
});

describe("rate limits", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ WREN_RATE_LIMIT_REQUESTS: "3" });
  });
  after(() => server.close());

  it("count down in X-RateLimit headers and refuse with 429 when spent", async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.request("/api/v1/no-such-thing");
      remaining.push(res.headers.get("x-ratelimit-remaining") ?? "");
      assert.equal(res.headers.get("x-ratelimit-limit"), "3");
      assert.ok(!Number.isNaN(Date.parse(res.headers.get("x-ratelimit-reset") ?? "")));
    }
    assert.deepEqual(remaining, ["2", "1", "0"]);
    const refused = await server.request("/api/v1/no-such-thing");
    assert.equal(refused.status, 429);
    assert.deepEqual(await refused.json(), { error: "Too many requests" });
    assert.equal(refused.headers.get("x-ratelimit-remaining"), "0");
  });

  it("keeps separate budgets per valid token", async () => {
    const { token } = await createUserWithToken(server, "other");
    const res = await server.request("/api/v1/no-such-thing", { token });
    assert.notEqual(res.status, 429);
  });
});
