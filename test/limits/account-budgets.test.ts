// Per-account budgets (Mastodon's: 300 statuses per 3 hours, 30 media per 30 minutes), counted
// in the data directory's key–value store so that they hold across processes and restarts.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Clock } from "../../src/domain/clock.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

async function post(server: TestServer, user: TestUser, status: string): Promise<Response> {
  const res = await server.request("/api/v1/statuses", {
    method: "POST",
    token: user.token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ status }),
  });
  await res.body?.cancel();
  return res;
}

async function uploadImage(server: TestServer, user: TestUser): Promise<Response> {
  const body = new FormData();
  body.append(
    "file",
    new Blob([new Uint8Array(await solidPng(8, 8))], { type: "image/png" }),
    "a.png",
  );
  const res = await server.request("/api/v2/media", { method: "POST", token: user.token, body });
  await res.body?.cancel();
  return res;
}

describe("the status budget at Mastodon's default", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    // Explicitly the default: the test servers raise it unless told.
    server = await startTestServer({
      WREN_STATUS_RATE_LIMIT_REQUESTS: "300",
      WREN_RATE_LIMIT_REQUESTS: "100000",
    });
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  it("refuses the 301st status in three hours with 429", async () => {
    for (let batch = 0; batch < 30; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(server, alice, `post ${batch * 10 + i}`)),
      );
      assert.deepEqual(
        answers.map((res) => res.status),
        Array(10).fill(200),
      );
    }
    const refused = await server.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "one too many" }),
    });
    assert.equal(refused.status, 429);
    assert.deepEqual(await refused.json(), { error: "Too many requests" });
    assert.equal(refused.headers.get("x-ratelimit-limit"), "300");
    assert.equal(refused.headers.get("x-ratelimit-remaining"), "0");
    const reset = Date.parse(refused.headers.get("x-ratelimit-reset") ?? "");
    assert.ok(reset > Date.now() + 2.9 * 3600_000 && reset <= Date.now() + 3 * 3600_000);
  });
});

describe("per-account budgets", () => {
  let now = Date.parse("2026-01-01T00:00:00Z");
  const clock: Clock = { now: () => new Date(now) };
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer(
      {
        WREN_STATUS_RATE_LIMIT_REQUESTS: "2",
        WREN_STATUS_RATE_LIMIT_WINDOW_SECONDS: "3600",
        WREN_MEDIA_RATE_LIMIT_REQUESTS: "2",
        WREN_MEDIA_RATE_LIMIT_WINDOW_SECONDS: "1800",
        WREN_FOLLOW_RATE_LIMIT_REQUESTS: "1",
        WREN_RATE_LIMIT_REQUESTS: "100000",
      },
      { clock },
    );
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  it("does not spend the budget on a status that was refused", async () => {
    const empty = await post(server, alice, "");
    assert.equal(empty.status, 422);
    const first = await post(server, alice, "first");
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("x-ratelimit-remaining"), "1");
  });

  it("keeps the count across a restart, per account", async () => {
    assert.equal((await post(server, alice, "second")).status, 200);
    await server.restart();
    assert.equal((await post(server, alice, "third")).status, 429);
    assert.equal((await post(server, bob, "bob's first")).status, 200);
  });

  it("gives a new budget once the window has passed", async () => {
    now += 3600_000;
    assert.equal((await post(server, alice, "a new window")).status, 200);
  });

  it("limits media uploads per account", async () => {
    assert.equal((await uploadImage(server, alice)).status, 200);
    assert.equal((await uploadImage(server, alice)).status, 200);
    const refused = await uploadImage(server, alice);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("x-ratelimit-limit"), "2");
    assert.equal((await uploadImage(server, bob)).status, 200);
  });

  it("limits follows per account", async () => {
    const carol = await createUserWithToken(server, "carol");
    const follow = async (target: TestUser) => {
      const res = await server.request(`/api/v1/accounts/${target.account.id}/follow`, {
        method: "POST",
        token: alice.token,
      });
      await res.body?.cancel();
      return res.status;
    };
    assert.equal(await follow(bob), 200);
    assert.equal(await follow(carol), 429);
  });
});
