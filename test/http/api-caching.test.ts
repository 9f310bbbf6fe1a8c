// Caching of API answers through a real server: Mastodon's Cache-Control and Vary headers, and
// Wren's own keeping of anonymous public answers, which must never outlive a write and may drift
// from the clock by at most the configured time.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MINUTE, movableClock, postPoll } from "../polls/helpers.ts";
import { call, post } from "../statuses/helpers.ts";

const PUBLIC = "public, max-age=15, stale-while-revalidate=30, stale-if-error=86400";

describe("API caching", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("announces public reads as cacheable to anonymous readers only", async () => {
    server = await startTestServer();
    const alice = await createUserWithToken(server, "alice");
    const status = await post(server, alice, { status: "Hello", visibility: "public" });
    const publicReads = [
      "/api/v1/timelines/public",
      "/api/v1/timelines/tag/wren",
      `/api/v1/statuses/${status.id}`,
      `/api/v1/statuses/${status.id}/context`,
      `/api/v1/statuses/${status.id}/favourited_by`,
      `/api/v1/accounts/${alice.account.id}`,
      `/api/v1/accounts/${alice.account.id}/statuses`,
      `/api/v1/accounts/${alice.account.id}/followers`,
    ];
    for (const path of publicReads) {
      const anonymous = await server.request(path);
      assert.equal(anonymous.status, 200, path);
      assert.equal(anonymous.headers.get("cache-control"), PUBLIC, path);
      assert.equal(anonymous.headers.get("vary"), "Authorization", path);
      assert.equal(anonymous.headers.get("access-control-allow-origin"), "*", path);
      const signedIn = await server.request(path, { token: alice.token });
      assert.equal(signedIn.headers.get("cache-control"), "private, no-store", path);
      assert.equal(signedIn.headers.get("vary"), "Authorization", path);
    }
    for (const path of ["/api/v1/statuses/1", "/api/v1/timelines/home", "/api/v1/markers"]) {
      const res = await server.request(path);
      assert.equal(res.headers.get("cache-control"), "private, no-store", path);
    }
    const description = [
      "/api/v1/instance",
      "/api/v2/instance",
      "/api/v1/instance/rules",
      "/api/v1/instance/languages",
      "/api/v1/instance/peers",
      "/api/v1/custom_emojis",
    ];
    for (const path of description) {
      for (const token of [undefined, alice.token]) {
        const res = await server.request(path, token ? { token } : {});
        assert.equal(res.status, 200, path);
        assert.match(res.headers.get("cache-control") ?? "", /^public, max-age=300,/, path);
      }
      // HEAD announces what GET would (Hono answers it with the GET route, without the body).
      const head = await server.request(path, { method: "HEAD" });
      assert.equal(head.status, 200, path);
      assert.match(head.headers.get("cache-control") ?? "", /^public, max-age=300,/, path);
      assert.equal(await head.text(), "", path);
    }
  });

  it("serves a kept page with its Link header and per-request headers", async () => {
    server = await startTestServer();
    const alice = await createUserWithToken(server, "alice");
    await post(server, alice, { status: "Older", visibility: "public" });
    const newer = await post(server, alice, { status: "Newer", visibility: "public" });
    const first = await server.request("/api/v1/timelines/public?limit=1");
    const kept = await server.request("/api/v1/timelines/public?limit=1");
    assert.deepEqual(await kept.json(), await first.json());
    const link = kept.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${newer.id}>; rel="next"`));
    assert.equal(link, first.headers.get("link"));
    assert.equal(kept.headers.get("cache-control"), PUBLIC);
    assert.ok(kept.headers.get("x-ratelimit-remaining"));
    assert.notEqual(kept.headers.get("x-request-id"), first.headers.get("x-request-id"));
  });

  it("shows anonymous readers a deletion, a new post and a favourite at once", async () => {
    server = await startTestServer();
    const alice = await createUserWithToken(server, "alice");
    const bob = await createUserWithToken(server, "bob");
    const first = await post(server, alice, { status: "First", visibility: "public" });
    const timeline = async () =>
      (await call(server as TestServer, "GET", "/api/v1/timelines/public")).map(
        (s: { id: string; favourites_count: number }) => [s.id, s.favourites_count],
      );
    assert.deepEqual(await timeline(), [[first.id, 0]]);
    assert.deepEqual(await timeline(), [[first.id, 0]]);

    const second = await post(server, alice, { status: "Second", visibility: "public" });
    assert.deepEqual(await timeline(), [
      [second.id, 0],
      [first.id, 0],
    ]);
    await call(server, "POST", `/api/v1/statuses/${first.id}/favourite`, { token: bob.token });
    assert.deepEqual(await timeline(), [
      [second.id, 0],
      [first.id, 1],
    ]);

    await call(server, "GET", `/api/v1/statuses/${second.id}`);
    await call(server, "DELETE", `/api/v1/statuses/${second.id}`, { token: alice.token });
    await call(server, "GET", `/api/v1/statuses/${second.id}`, {}, 404);
    assert.deepEqual(await timeline(), [[first.id, 1]]);
  });

  /** A server keeping answers `seconds`, and a poll of alice's that closes 10 minutes in. */
  async function pollOnServer(seconds: string) {
    const clock = movableClock();
    server = await startTestServer({ WREN_PUBLIC_CACHE_SECONDS: seconds }, { clock });
    const alice = await createUserWithToken(server, "alice");
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 600 });
    const path = `/api/v1/statuses/${status.id}`;
    const expired = async (token?: string) =>
      (await call(server as TestServer, "GET", path, { token })).poll.expired;
    return { clock, alice, expired };
  }

  it("lets what only the clock changes drift by no more than the kept time", async () => {
    const { clock, alice, expired } = await pollOnServer("5");
    clock.advance(10 * MINUTE - 2_000);
    assert.equal(await expired(), false);
    clock.advance(3_000); // past the deadline, within the 5 s an anonymous answer is kept
    assert.equal(await expired(), false);
    assert.equal(await expired(alice.token), true);
    clock.advance(3_000);
    assert.equal(await expired(), true);
  });

  it("keeps nothing when WREN_PUBLIC_CACHE_SECONDS is 0", async () => {
    const { clock, expired } = await pollOnServer("0");
    clock.advance(10 * MINUTE - 1_000);
    assert.equal(await expired(), false);
    clock.advance(2_000);
    assert.equal(await expired(), true);
  });
});
