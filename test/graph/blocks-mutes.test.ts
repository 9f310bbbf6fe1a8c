import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, manualClock, relationshipOf } from "./helpers.ts";

describe("blocks", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
  });
  after(() => server.close());

  it("ends follows both ways and pending requests, then blocks", async () => {
    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/follow`, alice.token);
    await call(server, "POST", `/api/v1/accounts/${alice.account.id}/follow`, bob.token);
    const before = await call(server, "GET", `/api/v1/accounts/${bob.account.id}`);
    assert.equal(before.body.followers_count, 1);

    const path = `/api/v1/accounts/${bob.account.id}/block`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.blocking, true);
    assert.equal(res.body.following, false);
    assert.equal(res.body.followed_by, false);

    const bobSide = await relationshipOf(server, bob, alice);
    assert.equal(bobSide.blocked_by, true);
    assert.equal(bobSide.blocking, false);
    assert.equal(bobSide.following, false);
    for (const user of [alice, bob]) {
      const json = await call(server, "GET", `/api/v1/accounts/${user.account.id}`);
      assert.equal(json.body.followers_count, 0);
      assert.equal(json.body.following_count, 0);
    }
  });

  it("withdraws follow requests in either direction", async () => {
    await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: carol.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locked: true }),
    });
    const dave = await createUserWithToken(server, "dave");
    const requested = await call(
      server,
      "POST",
      `/api/v1/accounts/${carol.account.id}/follow`,
      dave.token,
    );
    assert.equal(requested.body.requested, true);
    const res = await call(
      server,
      "POST",
      `/api/v1/accounts/${dave.account.id}/block`,
      carol.token,
    );
    assert.equal(res.body.requested_by, false);
    const list = await call(server, "GET", "/api/v1/follow_requests", carol.token);
    assert.deepEqual(list.body, []);
  });

  it("forbids following across a block, both ways", async () => {
    for (const [viewer, target] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const res = await call(
        server,
        "POST",
        `/api/v1/accounts/${target.account.id}/follow`,
        viewer.token,
      );
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { error: "This action is not allowed" });
    }
  });

  it("lists blocked accounts for the blocker only", async () => {
    const res = await call(server, "GET", "/api/v1/blocks", alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/blocks", 200, res.body);
    assert.deepEqual(
      res.body.map((a: Json) => a.id),
      [bob.account.id],
    );
    assert.deepEqual((await call(server, "GET", "/api/v1/blocks", bob.token)).body, []);
  });

  it("blocking twice keeps one block; blocking yourself changes nothing", async () => {
    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/block`, alice.token);
    const list = await call(server, "GET", "/api/v1/blocks", alice.token);
    assert.equal(list.body.length, 1);
    const self = await call(
      server,
      "POST",
      `/api/v1/accounts/${alice.account.id}/block`,
      alice.token,
    );
    assert.equal(self.status, 200);
    assert.equal(self.body.blocking, false);
  });

  it("unblocks without restoring follows", async () => {
    const path = `/api/v1/accounts/${bob.account.id}/unblock`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.blocking, false);
    assert.equal(res.body.following, false);
    assert.deepEqual((await call(server, "GET", "/api/v1/blocks", alice.token)).body, []);
    const follow = await call(
      server,
      "POST",
      `/api/v1/accounts/${bob.account.id}/follow`,
      alice.token,
    );
    assert.equal(follow.body.following, true);
  });

  it("checks ids and scopes", async () => {
    for (const action of ["block", "unblock"]) {
      const res = await call(server, "POST", `/api/v1/accounts/999999999/${action}`, alice.token);
      assert.equal(res.status, 404);
    }
    const follows = await createUserWithToken(server, "follows_only", ["write:follows"]);
    const path = `/api/v1/accounts/${bob.account.id}/block`;
    assert.equal((await call(server, "POST", path, follows.token)).status, 403);
    assert.equal((await call(server, "POST", path)).status, 401);
    const writer = await createUserWithToken(server, "writer_blocks", ["write:blocks"]);
    assert.equal((await call(server, "POST", path, writer.token)).status, 200);
    assert.equal((await call(server, "GET", "/api/v1/blocks", writer.token)).status, 403);
    const reader = await createUserWithToken(server, "reader_blocks", ["read:blocks"]);
    assert.equal((await call(server, "GET", "/api/v1/blocks", reader.token)).status, 200);
  });
});

describe("mutes", () => {
  let server: TestServer;
  const clock = manualClock();
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    server = await startTestServer({}, { clock });
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
  });
  after(() => server.close());

  it("mutes indefinitely, hiding notifications by default", async () => {
    const path = `/api/v1/accounts/${bob.account.id}/mute`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.muting, true);
    assert.equal(res.body.muting_notifications, true);
    assert.equal(res.body.muting_expires_at, null);
    // A mute is one-sided and leaves follows alone.
    assert.equal((await relationshipOf(server, bob, alice)).muting, false);
  });

  it("muting yourself changes nothing and answers 200, as Mastodon's MuteService", async () => {
    const path = `/api/v1/accounts/${alice.account.id}/mute`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.muting, false);
    const mutes = await call(server, "GET", "/api/v1/mutes", alice.token);
    assert.ok(!mutes.body.some((a: { id: string }) => a.id === alice.account.id));
  });

  it("muting again updates the notifications flag", async () => {
    const res = await call(server, "POST", `/api/v1/accounts/${bob.account.id}/mute`, alice.token, {
      notifications: false,
    });
    assert.equal(res.body.muting, true);
    assert.equal(res.body.muting_notifications, false);
  });

  it("a timed mute lapses when its duration has passed", async () => {
    const res = await call(
      server,
      "POST",
      `/api/v1/accounts/${carol.account.id}/mute`,
      alice.token,
      { duration: 3600 },
    );
    assert.equal(res.body.muting, true);
    const expected = new Date(clock.now().getTime() + 3600_000).toISOString();
    assert.equal(res.body.muting_expires_at, expected);

    const list = await call(server, "GET", "/api/v1/mutes", alice.token);
    assert.equal(list.status, 200);
    assertMatchesResponse("GET", "/api/v1/mutes", 200, list.body);
    assert.deepEqual(
      list.body.map((a: Json) => [a.id, a.mute_expires_at]),
      [
        [carol.account.id, expected],
        [bob.account.id, null],
      ],
    );

    clock.advance(3599);
    assert.equal((await relationshipOf(server, alice, carol)).muting, true);
    clock.advance(1);
    const lapsed = await relationshipOf(server, alice, carol);
    assert.equal(lapsed.muting, false);
    assert.equal(lapsed.muting_expires_at, null);
    const after = await call(server, "GET", "/api/v1/mutes", alice.token);
    assert.deepEqual(
      after.body.map((a: Json) => a.id),
      [bob.account.id],
    );
    for (const account of after.body) assertMatchesSchema(account, "MutedAccount");

    // The lapsed record is removed by the job queued for its expiry.
    const mutes = server.wren.ctx.storage.mutes;
    assert.ok(await mutes.get(alice.account.id, carol.account.id));
    await server.wren.jobs.runDue();
    assert.equal(await mutes.get(alice.account.id, carol.account.id), undefined);
  });

  it("the expiry job leaves a mute made again since in force", async () => {
    const path = `/api/v1/accounts/${carol.account.id}/mute`;
    await call(server, "POST", path, alice.token, { duration: 60 });
    const again = await call(server, "POST", path, alice.token, { duration: 0 });
    assert.equal(again.body.muting_expires_at, null);
    clock.advance(61);
    await server.wren.jobs.runDue();
    const rel = await relationshipOf(server, alice, carol);
    assert.equal(rel.muting, true);
    assert.ok(await server.wren.ctx.storage.mutes.get(alice.account.id, carol.account.id));
    await call(server, "POST", `/api/v1/accounts/${carol.account.id}/unmute`, alice.token);
  });

  it("unmutes, and accepts form bodies with string values", async () => {
    const path = `/api/v1/accounts/${bob.account.id}/unmute`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.muting, false);
    const form = await server.request(`/api/v1/accounts/${bob.account.id}/mute`, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "notifications=false&duration=60",
    });
    const body: Json = await form.json();
    assert.equal(body.muting_notifications, false);
    assert.notEqual(body.muting_expires_at, null);
  });

  it("rejects a bad duration with 422 and checks ids and scopes", async () => {
    const path = `/api/v1/accounts/${bob.account.id}/mute`;
    for (const duration of [-5, "soon", 1e300, Number.MAX_SAFE_INTEGER]) {
      const res = await call(server, "POST", path, alice.token, { duration });
      assert.equal(res.status, 422, String(duration));
    }
    assert.equal(
      (await call(server, "POST", "/api/v1/accounts/999999999/mute", alice.token)).status,
      404,
    );
    const blocks = await createUserWithToken(server, "blocks_only", ["write:blocks"]);
    assert.equal((await call(server, "POST", path, blocks.token)).status, 403);
    const mutes = await createUserWithToken(server, "mutes_only", ["write:mutes"]);
    assert.equal((await call(server, "POST", path, mutes.token)).status, 200);
    assert.equal((await call(server, "GET", "/api/v1/mutes", mutes.token)).status, 403);
    const legacy = await createUserWithToken(server, "legacy", ["follow"]);
    assert.equal((await call(server, "GET", "/api/v1/mutes", legacy.token)).status, 200);
    assert.equal((await call(server, "GET", "/api/v1/mutes")).status, 401);
  });
});
