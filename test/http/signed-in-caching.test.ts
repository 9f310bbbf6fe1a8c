// Signed-in answers kept per token between writes (ADR 60), through a real server: what a kept
// answer is made of is what a rendering would give, byte for byte; the viewer's own favourite,
// mute, block, follow and filter, anyone else's write and a revoked token are seen by the next
// request; one token's answer is never another's; and what changes with the clock alone (a timed
// mute ending, a poll closing) is bounded.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { hashSecret } from "../../src/services/auth/secrets.ts";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MINUTE, movableClock, postPoll } from "../polls/helpers.ts";
import { call, follow, type Json, post } from "../statuses/helpers.ts";

/** Headers that differ per request whatever is kept: its id, the date, the rate limits' count. */
const PER_REQUEST = new Set(["x-request-id", "date", "x-ratelimit-remaining", "x-ratelimit-reset"]);

async function snapshot(res: Response) {
  const headers = [...res.headers].filter(([name]) => !PER_REQUEST.has(name));
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe("signed-in answers kept between writes", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const ids = (list: Json[]) => list.map((s: Json) => s.id);

  async function home(user: TestUser): Promise<Json[]> {
    return call(server as TestServer, "GET", "/api/v1/timelines/home", { token: user.token });
  }

  it("serves what a rendering gives, byte for byte, with the page's headers", async () => {
    server = await startTestServer();
    const [alice, bob] = await createUsers(server, "alice", "bob");
    await follow(server, alice, bob);
    await follow(server, bob, alice);
    const first = await post(server, bob, { status: "one #wren", visibility: "public" });
    await post(server, bob, { status: "two #wren", visibility: "public" });
    await call(server, "POST", `/api/v1/statuses/${first.id}/favourite`, { token: alice.token });
    const reply = await post(server, alice, { status: "@bob a reply", in_reply_to_id: first.id });
    const reads = [
      "/api/v1/timelines/home?limit=1",
      "/api/v1/timelines/public",
      "/api/v1/timelines/tag/wren",
      `/api/v1/statuses/${first.id}`,
      `/api/v1/statuses/${first.id}/context`,
      `/api/v1/accounts/${bob.account.id}/statuses?limit=1`,
      `/api/v1/accounts/relationships?id[]=${bob.account.id}&id[]=${alice.account.id}`,
      "/api/v1/notifications",
    ];
    const listed = await call(server, "POST", "/api/v1/lists", {
      token: alice.token,
      json: { title: "friends" },
    });
    const added = await server.request(`/api/v1/lists/${listed.id}/accounts`, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account_ids: [bob.account.id] }),
    });
    assert.equal(added.status, 200, await added.text());
    reads.push(`/api/v1/timelines/list/${listed.id}`);
    for (const path of reads) {
      const as = (user: TestUser, headers: Record<string, string> = {}) =>
        (server as TestServer).request(path, { token: user.token, headers });
      const rendered = await snapshot(await as(alice));
      const kept = await snapshot(await as(alice));
      const renderedAgain = await snapshot(await as(alice, { "cache-control": "no-cache" }));
      assert.equal(rendered.status, 200, `${path}: ${rendered.body}`);
      assert.deepEqual(kept, rendered, path);
      assert.deepEqual(renderedAgain, rendered, path);
      const headers = new Map(kept.headers);
      assert.equal(headers.get("cache-control"), "private, no-store", path);
      assert.equal(headers.get("vary"), "Authorization", path);
      // Another viewer is answered for themselves.
      const bobs = await snapshot(await as(bob));
      if (path.includes("statuses/") || path.includes("notifications")) {
        assert.notDeepEqual(bobs.body, kept.body, path);
      }
    }
    // The paged ones kept their Link header.
    const page = await server.request("/api/v1/timelines/home?limit=1", { token: alice.token });
    assert.match(page.headers.get("link") ?? "", new RegExp(`max_id=${reply.id}>; rel="next"`));
    await page.body?.cancel();
  });

  it("shows the viewer's favourite, mute, block, follow and filter at once", async () => {
    server = await startTestServer();
    const [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
    await follow(server, alice, bob);
    const bobs = await post(server, bob, { status: "a spoiler about the finale" });
    const carols = await post(server, carol, { status: "carol speaks" });
    assert.deepEqual(ids(await home(alice)), [bobs.id]);
    assert.deepEqual(ids(await home(alice)), [bobs.id]);

    await call(server, "POST", `/api/v1/statuses/${bobs.id}/favourite`, { token: alice.token });
    assert.equal((await home(alice))[0].favourited, true);

    await call(server, "POST", `/api/v1/accounts/${carol.account.id}/follow`, {
      token: alice.token,
    });
    assert.deepEqual(ids(await home(alice)), [carols.id, bobs.id]);

    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/mute`, { token: alice.token });
    assert.deepEqual(ids(await home(alice)), [carols.id]);
    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/unmute`, {
      token: alice.token,
    });
    assert.deepEqual(ids(await home(alice)), [carols.id, bobs.id]);

    await call(server, "POST", `/api/v1/accounts/${carol.account.id}/block`, {
      token: alice.token,
    });
    assert.deepEqual(ids(await home(alice)), [bobs.id]);

    const filter = await call(server, "POST", "/api/v2/filters", {
      token: alice.token,
      json: {
        title: "Spoilers",
        context: ["home"],
        filter_action: "hide",
        keywords_attributes: [{ keyword: "finale" }],
      },
    });
    assert.deepEqual(ids(await home(alice)), []);
    const deleted = await server.request(`/api/v2/filters/${filter.id}`, {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(deleted.status, 200, await deleted.text());
    assert.deepEqual(ids(await home(alice)), [bobs.id]);
  });

  it("shows anyone's write at once, and never serves one token's answer to another", async () => {
    server = await startTestServer();
    const [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
    const status = await post(server, alice, { status: "hello", visibility: "public" });
    const path = `/api/v1/statuses/${status.id}`;
    const read = (user: TestUser) => call(server as TestServer, "GET", path, { token: user.token });
    await call(server, "POST", `${path}/favourite`, { token: bob.token });
    assert.equal((await read(bob)).favourited, true);
    assert.equal((await read(bob)).favourited, true);
    assert.equal((await read(carol)).favourited, false);

    await call(server, "POST", `${path}/favourite`, { token: carol.token });
    const seen = await read(bob);
    assert.equal(seen.favourites_count, 2, "another's favourite counted at once");
    assert.equal((await read(carol)).favourited, true);

    await call(server, "DELETE", path, { token: alice.token });
    await call(server, "GET", path, { token: bob.token }, 404);
  });

  it("refuses a token revoked after its answer was kept", async () => {
    server = await startTestServer();
    const alice = await createUserWithToken(server, "alice");
    await home(alice);
    await home(alice);
    const ctx = server.wren.ctx;
    const token = await ctx.storage.tokens.findByTokenHash(hashSecret(alice.token));
    assert.ok(token);
    // As POST /oauth/revoke writes it (its client authentication aside).
    await ctx.storage.tokens.put({ ...token, revokedAt: ctx.clock.now().toISOString() });
    const res = await server.request("/api/v1/timelines/home", { token: alice.token });
    assert.equal(res.status, 401);
    await res.body?.cancel();
  });

  it("renders again when the viewer's timed mute ends, within the kept time", async () => {
    const clock = movableClock();
    server = await startTestServer({ WREN_SIGNED_IN_CACHE_SECONDS: "15" }, { clock });
    const [alice, bob] = await createUsers(server, "alice", "bob");
    await follow(server, alice, bob);
    const bobs = await post(server, bob, { status: "muted for a while" });
    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/mute`, {
      token: alice.token,
      json: { duration: 2 },
    });
    assert.deepEqual(ids(await home(alice)), []);
    clock.advance(1_999);
    assert.deepEqual(ids(await home(alice)), []);
    // 2 s in: the mute has ended, 13 s before the kept answer's own time would run out.
    clock.advance(1);
    assert.deepEqual(ids(await home(alice)), [bobs.id]);
  });

  it("lets a poll's closing lag by no more than the kept time, and keeps nothing at 0", async () => {
    for (const seconds of ["5", "0"]) {
      const clock = movableClock();
      server = await startTestServer({ WREN_SIGNED_IN_CACHE_SECONDS: seconds }, { clock });
      const alice = await createUserWithToken(server, "alice");
      const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 600 });
      const expired = async () =>
        (
          await call(server as TestServer, "GET", `/api/v1/statuses/${status.id}`, {
            token: alice.token,
          })
        ).poll.expired;
      clock.advance(10 * MINUTE - 2_000);
      assert.equal(await expired(), false);
      clock.advance(3_000); // closed 1 s ago; the answer was kept 3 s ago
      assert.equal(await expired(), seconds === "0");
      clock.advance(3_000);
      assert.equal(await expired(), true);
      await server.close();
      server = undefined;
    }
  });
});
