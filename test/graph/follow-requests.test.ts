import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, relationshipOf } from "./helpers.ts";

describe("follow requests to a locked account", () => {
  let server: TestServer;
  let locked: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    [locked, alice, bob] = await createUsers(server, "locked", "alice", "bob");
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: locked.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locked: true }),
    });
    assert.equal(res.status, 200);
  });
  after(() => server.close());

  it("following a locked account makes a pending request", async () => {
    const res = await call(
      server,
      "POST",
      `/api/v1/accounts/${locked.account.id}/follow`,
      alice.token,
      { reblogs: false, notify: true },
    );
    assert.equal(res.status, 200);
    assertMatchesSchema(res.body, "Relationship");
    assert.equal(res.body.following, false);
    assert.equal(res.body.requested, true);
    // The options wait with the request, as Mastodon reports them.
    assert.equal(res.body.showing_reblogs, false);
    assert.equal(res.body.notifying, true);
    assert.equal((await relationshipOf(server, locked, alice)).requested_by, true);
    await call(server, "POST", `/api/v1/accounts/${locked.account.id}/follow`, bob.token);
  });

  it("lists the accounts asking, newest first, and counts them in the owner's source", async () => {
    const res = await call(server, "GET", "/api/v1/follow_requests", locked.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/follow_requests", 200, res.body);
    assert.deepEqual(
      res.body.map((a: Json) => a.id),
      [bob.account.id, alice.account.id],
    );
    const me = await call(server, "GET", "/api/v1/accounts/verify_credentials", locked.token);
    assert.equal(me.body.source.follow_requests_count, 2);
    assert.equal(me.body.followers_count, 0);
    // Nobody else sees them.
    const other = await call(server, "GET", "/api/v1/follow_requests", alice.token);
    assert.deepEqual(other.body, []);
  });

  it("authorizing turns the request into a follow with the requested options", async () => {
    const path = `/api/v1/follow_requests/${alice.account.id}/authorize`;
    const res = await call(server, "POST", path, locked.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.id, alice.account.id);
    assert.equal(res.body.followed_by, true);
    assert.equal(res.body.requested_by, false);
    const aliceSide = await relationshipOf(server, alice, locked);
    assert.equal(aliceSide.following, true);
    assert.equal(aliceSide.requested, false);
    assert.equal(aliceSide.showing_reblogs, false);
    assert.equal(aliceSide.notifying, true);
    const account = await call(server, "GET", `/api/v1/accounts/${locked.account.id}`);
    assert.equal(account.body.followers_count, 1);
    // Authorizing again: the request is gone.
    const again = await call(server, "POST", path, locked.token);
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { error: "Record not found" });
  });

  it("rejecting drops the request without a follow", async () => {
    const path = `/api/v1/follow_requests/${bob.account.id}/reject`;
    const res = await call(server, "POST", path, locked.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.followed_by, false);
    assert.equal(res.body.requested_by, false);
    const bobSide = await relationshipOf(server, bob, locked);
    assert.equal(bobSide.following, false);
    assert.equal(bobSide.requested, false);
    const list = await call(server, "GET", "/api/v1/follow_requests", locked.token);
    assert.deepEqual(list.body, []);
    assert.equal((await call(server, "POST", path, locked.token)).status, 404);
  });

  it("unfollowing withdraws a pending request", async () => {
    await call(server, "POST", `/api/v1/accounts/${locked.account.id}/follow`, bob.token);
    const res = await call(
      server,
      "POST",
      `/api/v1/accounts/${locked.account.id}/unfollow`,
      bob.token,
    );
    assert.equal(res.body.requested, false);
    const list = await call(server, "GET", "/api/v1/follow_requests", locked.token);
    assert.deepEqual(list.body, []);
  });

  it("answers 404 for unknown accounts and needs the follows scopes", async () => {
    for (const action of ["authorize", "reject"]) {
      const res = await call(
        server,
        "POST",
        `/api/v1/follow_requests/999999999/${action}`,
        locked.token,
      );
      assert.equal(res.status, 404);
    }
    const reader = await createUserWithToken(server, "reader", ["read:statuses"]);
    assert.equal((await call(server, "GET", "/api/v1/follow_requests", reader.token)).status, 403);
    assert.equal((await call(server, "GET", "/api/v1/follow_requests")).status, 401);
    const readOnly = await createUserWithToken(server, "readonly", ["read"]);
    assert.equal(
      (
        await call(
          server,
          "POST",
          `/api/v1/follow_requests/${alice.account.id}/reject`,
          readOnly.token,
        )
      ).status,
      403,
    );
  });
});

describe("unlocking an account", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("accepts the follow requests that were waiting", async () => {
    const [owner, carol, dave] = await createUsers(server, "owner", "carol", "dave");
    const setLocked = (locked: boolean) =>
      call(server, "PATCH", "/api/v1/accounts/update_credentials", owner.token, { locked });
    assert.equal((await setLocked(true)).status, 200);
    for (const follower of [carol, dave]) {
      const res = await call(
        server,
        "POST",
        `/api/v1/accounts/${owner.account.id}/follow`,
        follower.token,
      );
      assert.equal(res.body.requested, true);
    }

    assert.equal((await setLocked(false)).status, 200);

    const pending = await call(server, "GET", "/api/v1/follow_requests", owner.token);
    assert.deepEqual(pending.body, []);
    for (const follower of [carol, dave]) {
      const rel = await relationshipOf(server, follower, owner);
      assert.equal(rel.following, true);
      assert.equal(rel.requested, false);
    }
    const me = await call(server, "GET", "/api/v1/accounts/verify_credentials", owner.token);
    assert.equal(me.body.followers_count, 2);
  });
});
