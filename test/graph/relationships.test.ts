import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  createAppToken,
  createUsers,
  createUserWithToken,
  type TestUser,
} from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json } from "./helpers.ts";

const DEFAULTS = {
  following: false,
  showing_reblogs: false,
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
};

describe("relationships and familiar followers", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let erin: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol, dave, erin] = await createUsers(
      server,
      "alice",
      "bob",
      "carol",
      "dave",
      "erin",
    );
    const post = (user: TestUser, target: TestUser, action: string) =>
      call(server, "POST", `/api/v1/accounts/${target.account.id}/${action}`, user.token);
    await post(alice, bob, "follow");
    await post(carol, alice, "follow");
    await post(alice, dave, "block");
    await post(erin, alice, "block");
    // Familiar followers of erin: accounts alice follows (bob, carol) that follow erin.
    await post(alice, carol, "follow");
    await post(bob, erin, "follow");
    await post(carol, erin, "follow");
  });
  after(() => server.close());

  it("answers one Relationship per id, in request order, defaults for the rest", async () => {
    const ids = [dave, bob, erin, carol].map((u) => u.account.id);
    const unknown = "999999999999";
    const path = `/api/v1/accounts/relationships?${[...ids, unknown]
      .map((id) => `id[]=${id}`)
      .join("&")}`;
    const res = await call(server, "GET", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/accounts/relationships", 200, res.body);
    for (const r of res.body) assertMatchesSchema(r, "Relationship");
    assert.deepEqual(
      res.body.map((r: Json) => r.id),
      [...ids, unknown],
    );
    const [d, b, e, c, u] = res.body;
    assert.deepEqual(d, { ...DEFAULTS, id: dave.account.id, blocking: true });
    assert.deepEqual(b, {
      ...DEFAULTS,
      id: bob.account.id,
      following: true,
      showing_reblogs: true,
    });
    assert.deepEqual(e, { ...DEFAULTS, id: erin.account.id, blocked_by: true });
    assert.deepEqual(c, {
      ...DEFAULTS,
      id: carol.account.id,
      following: true,
      showing_reblogs: true,
      followed_by: true,
    });
    assert.deepEqual(u, { ...DEFAULTS, id: unknown });
  });

  it("takes a single id= and answers [] without ids", async () => {
    const single = await call(
      server,
      "GET",
      `/api/v1/accounts/relationships?id=${bob.account.id}&with_suspended=true`,
      alice.token,
    );
    assert.equal(single.status, 200);
    assert.deepEqual(
      single.body.map((r: Json) => r.id),
      [bob.account.id],
    );
    const none = await call(server, "GET", "/api/v1/accounts/relationships", alice.token);
    assert.deepEqual(none.body, []);
  });

  it("answers an id asked twice once, where it was first asked", async () => {
    const unknown = "999999999999";
    const asked = [bob.account.id, unknown, bob.account.id, carol.account.id, unknown];
    const path = `/api/v1/accounts/relationships?${asked.map((id) => `id[]=${id}`).join("&")}`;
    const res = await call(server, "GET", path, alice.token);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((r: Json) => r.id),
      [bob.account.id, unknown, carol.account.id],
    );
    assert.deepEqual(res.body[1], { ...DEFAULTS, id: unknown });
    const familiar = await call(
      server,
      "GET",
      `/api/v1/accounts/familiar_followers?id[]=${erin.account.id}&id[]=${erin.account.id}`,
      alice.token,
    );
    assert.deepEqual(
      familiar.body.map((entry: Json) => entry.id),
      [erin.account.id],
    );
  });

  it("rejects malformed ids with 422", async () => {
    const res = await call(server, "GET", "/api/v1/accounts/relationships?id[]=abc", alice.token);
    assert.equal(res.status, 422);
    assert.equal(typeof res.body.error, "string");
  });

  it("needs a user token with read:follows", async () => {
    const path = `/api/v1/accounts/relationships?id[]=${bob.account.id}`;
    assert.equal((await call(server, "GET", path)).status, 401);
    const statusesOnly = await createUserWithToken(server, "statuses_reader", ["read:statuses"]);
    assert.equal((await call(server, "GET", path, statusesOnly.token)).status, 403);
    const follows = await createUserWithToken(server, "follows_reader", ["read:follows"]);
    assert.equal((await call(server, "GET", path, follows.token)).status, 200);
    const app = await createAppToken(server, ["read"]);
    assert.equal((await call(server, "GET", path, app.token)).status, 422);
  });

  it("finds familiar followers per requested account, skipping unknown ids", async () => {
    const path = `/api/v1/accounts/familiar_followers?id[]=${erin.account.id}&id[]=999999999999&id[]=${bob.account.id}`;
    const res = await call(server, "GET", path, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/accounts/familiar_followers", 200, res.body);
    for (const entry of res.body) assertMatchesSchema(entry, "FamiliarFollowers");
    assert.deepEqual(
      res.body.map((entry: Json) => [entry.id, entry.accounts.map((a: Json) => a.id)]),
      [
        // Newest follow first: carol followed erin after bob did.
        [erin.account.id, [carol.account.id, bob.account.id]],
        [bob.account.id, []],
      ],
    );
    assert.equal(res.body[0].accounts[0].followers_count, 1);
  });

  it("familiar followers need read:follows", async () => {
    const path = `/api/v1/accounts/familiar_followers?id=${erin.account.id}`;
    assert.equal((await call(server, "GET", path)).status, 401);
    const statusesOnly = await createUserWithToken(server, "ff_reader", ["read:statuses"]);
    assert.equal((await call(server, "GET", path, statusesOnly.token)).status, 403);
  });
});
