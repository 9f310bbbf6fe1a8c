import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createAppToken,
  createUsers,
  createUserWithToken,
  type TestUser,
} from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, relationshipOf } from "./helpers.ts";

describe("follow, unfollow, remove from followers", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
  });
  after(() => server.close());

  it("follows an unlocked account at once, with Mastodon's default options", async () => {
    const path = `/api/v1/accounts/${bob.account.id}/follow`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assertMatchesSchema(res.body, "Relationship");
    assert.deepEqual(res.body, {
      id: bob.account.id,
      following: true,
      showing_reblogs: true,
      notifying: false,
      languages: null,
      followed_by: false,
      blocking: false,
      blocked_by: false,
      muting: false,
      muting_notifications: false,
      muting_expires_at: null,
      requested: false,
      requested_by: false,
      domain_blocking: false,
      endorsed: false,
      note: "",
    });
    // Bob sees Alice as a follower.
    const reverse = await relationshipOf(server, bob, alice);
    assert.equal(reverse.followed_by, true);
    assert.equal(reverse.following, false);
  });

  it("re-following changes the options and keeps the follow", async () => {
    const path = `/api/v1/accounts/${bob.account.id}/follow`;
    const res = await call(server, "POST", path, alice.token, {
      reblogs: false,
      notify: true,
      languages: ["en", "de"],
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.following, true);
    assert.equal(res.body.showing_reblogs, false);
    assert.equal(res.body.notifying, true);
    assert.deepEqual(res.body.languages, ["en", "de"]);
    // Options not sent stay as they were; form bodies and string booleans work too.
    const form = await server.request(path, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "reblogs=true",
    });
    const body: Json = await form.json();
    assert.equal(body.showing_reblogs, true);
    assert.equal(body.notifying, true);
    assert.deepEqual(body.languages, ["en", "de"]);
    // An empty languages[] clears the filter.
    const cleared = await server.request(path, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "languages[]=",
    });
    const clearedBody: Json = await cleared.json();
    assert.equal(clearedBody.languages, null);
  });

  it("writes nothing when re-following with the options the follow already has", async () => {
    const path = `/api/v1/accounts/${carol.account.id}/follow`;
    const storage = server.wren.ctx.storage;
    await call(server, "POST", path, alice.token, { notify: true, languages: ["en"] });
    const before = storage.version();
    const same = await call(server, "POST", path, alice.token, { notify: true, languages: ["en"] });
    assert.equal(same.body.notifying, true);
    const bare = await call(server, "POST", path, alice.token);
    assert.equal(bare.body.following, true);
    // Nothing changed: every kept answer stays kept (the version moves with any write).
    assert.equal(storage.version(), before);
    const changed = await call(server, "POST", path, alice.token, { languages: ["en", "fr"] });
    assert.deepEqual(changed.body.languages, ["en", "fr"]);
    assert.notEqual(storage.version(), before);
    await call(server, "POST", `/api/v1/accounts/${carol.account.id}/unfollow`, alice.token);
  });

  it("rejects malformed options with 422", async () => {
    const path = `/api/v1/accounts/${bob.account.id}/follow`;
    for (const body of [{ reblogs: "maybe" }, { languages: ["english!"] }]) {
      const res = await call(server, "POST", path, alice.token, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(typeof res.body.error, "string");
    }
  });

  it("counts follows in the Account entities", async () => {
    const bobJson = await call(server, "GET", `/api/v1/accounts/${bob.account.id}`);
    assertMatchesSchema(bobJson.body, "Account");
    assert.equal(bobJson.body.followers_count, 1);
    assert.equal(bobJson.body.following_count, 0);
    const me = await call(server, "GET", "/api/v1/accounts/verify_credentials", alice.token);
    assert.equal(me.body.following_count, 1);
    assert.equal(me.body.followers_count, 0);

    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/unfollow`, alice.token);
    const after = await call(server, "GET", `/api/v1/accounts/${bob.account.id}`);
    assert.equal(after.body.followers_count, 0);
  });

  it("unfollows, and unfollowing again is not an error", async () => {
    await call(server, "POST", `/api/v1/accounts/${carol.account.id}/follow`, alice.token);
    const path = `/api/v1/accounts/${carol.account.id}/unfollow`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.following, false);
    assert.equal(res.body.showing_reblogs, false);
    const again = await call(server, "POST", path, alice.token);
    assert.equal(again.status, 200);
    assert.equal(again.body.following, false);
  });

  it("removes an account from the viewer's followers", async () => {
    await call(server, "POST", `/api/v1/accounts/${alice.account.id}/follow`, carol.token);
    const path = `/api/v1/accounts/${carol.account.id}/remove_from_followers`;
    const res = await call(server, "POST", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", path, 200, res.body);
    assert.equal(res.body.followed_by, false);
    const carolSide = await call(
      server,
      "GET",
      `/api/v1/accounts/relationships?id=${alice.account.id}`,
      carol.token,
    );
    assert.equal(carolSide.body[0].following, false);
  });

  it("refuses to follow yourself with 403", async () => {
    const res = await call(
      server,
      "POST",
      `/api/v1/accounts/${alice.account.id}/follow`,
      alice.token,
    );
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, { error: "Following your own account is not allowed" });
  });

  it("answers 404 for unknown and non-numeric ids", async () => {
    for (const action of ["follow", "unfollow", "remove_from_followers"]) {
      for (const id of ["999999999999", "abc"]) {
        const res = await call(server, "POST", `/api/v1/accounts/${id}/${action}`, alice.token);
        assert.equal(res.status, 404, `${action} ${id}`);
        assert.deepEqual(res.body, { error: "Record not found" });
      }
    }
  });

  it("needs a user token with write:follows (or write, or the legacy follow scope)", async () => {
    const path = `/api/v1/accounts/${carol.account.id}/follow`;
    assert.equal((await call(server, "POST", path)).status, 401);
    assert.equal((await call(server, "POST", path, "bogus")).status, 401);
    const reader = await createUserWithToken(server, "reader", ["read"]);
    const denied = await call(server, "POST", path, reader.token);
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { error: "This action is outside the authorized scopes" });
    const blocksOnly = await createUserWithToken(server, "blocker", ["write:blocks"]);
    assert.equal((await call(server, "POST", path, blocksOnly.token)).status, 403);
    for (const [name, scopes] of [
      ["granular", ["write:follows"]],
      ["legacy", ["follow"]],
      ["broad", ["write"]],
    ] as const) {
      const user = await createUserWithToken(server, `scoped_${name}`, scopes);
      assert.equal((await call(server, "POST", path, user.token)).status, 200, name);
    }
    const app = await createAppToken(server, ["write"]);
    const appOnly = await call(server, "POST", path, app.token);
    assert.equal(appOnly.status, 422);
    assert.deepEqual(appOnly.body, { error: "This method requires an authenticated user" });
  });

  it("asks remote accounts: requested until their server accepts, with a Follow id", async () => {
    const remote = remoteAccountRecord(server, "dave", "remote.example");
    await server.wren.ctx.storage.accounts.put(remote);
    const res = await call(server, "POST", `/api/v1/accounts/${remote.id}/follow`, alice.token);
    assert.equal(res.status, 200);
    assert.equal(res.body.following, false);
    assert.equal(res.body.requested, true);
    const request = await server.wren.ctx.storage.followRequests.get(alice.account.id, remote.id);
    assert.match(request?.uri ?? "", new RegExp(`^${server.url}/follows/${request?.id}$`));
  });
});
