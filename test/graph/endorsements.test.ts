// Featured accounts (Mastodon's endorsements): only followed accounts, idempotent both ways,
// `endorsed` in the Relationship, the viewer's list and a profile's list paged by Link headers,
// and the endorsement ending with the follow.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ENDORSEMENTS_LIMIT } from "../../src/services/graph/endorse.ts";
import { createAppToken, createUsers, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, parseLink, relationshipOf } from "./helpers.ts";

describe("endorsements", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol, dave] = await createUsers(server, "alice", "bob", "carol", "dave");
    for (const u of [bob, carol, dave]) {
      await call(server, "POST", `/api/v1/accounts/${u.account.id}/follow`, alice.token);
    }
  });
  after(() => server.close());

  const act = (viewer: TestUser, target: TestUser, action: string) =>
    call(server, "POST", `/api/v1/accounts/${target.account.id}/${action}`, viewer.token);
  const ids = (body: { id: string }[]) => body.map((a) => a.id);

  it("features a followed account, idempotently, and shows it in the relationship", async () => {
    const res = await act(alice, bob, "endorse");
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", "/api/v1/accounts/{id}/endorse", 200, res.body);
    assert.equal(res.body.id, bob.account.id);
    assert.equal(res.body.endorsed, true);
    assert.equal(res.body.following, true);
    assert.equal((await act(alice, bob, "endorse")).body.endorsed, true);
    assert.equal(await server.wren.ctx.storage.endorsements.countFrom(alice.account.id), 1);
    assert.equal((await relationshipOf(server, alice, bob)).endorsed, true);
    // Private to the endorser's side: bob's relationship to alice is not endorsed.
    assert.equal((await relationshipOf(server, bob, alice)).endorsed, false);

    const removed = await act(alice, bob, "unendorse");
    assert.equal(removed.status, 200);
    assertMatchesResponse("POST", "/api/v1/accounts/{id}/unendorse", 200, removed.body);
    assert.equal(removed.body.endorsed, false);
    assert.equal((await act(alice, bob, "unendorse")).status, 200);
    assert.equal((await relationshipOf(server, alice, bob)).endorsed, false);

    // The pre-4.4 names do the same.
    assert.equal((await act(alice, bob, "pin")).body.endorsed, true);
    assert.equal((await act(alice, bob, "unpin")).body.endorsed, false);
  });

  it("refuses an account the user does not follow, themselves, and an unknown id", async () => {
    const notFollowed = await act(bob, carol, "endorse");
    assert.equal(notFollowed.status, 422);
    assert.match(notFollowed.body.error, /must be already following/);
    assert.equal((await act(alice, alice, "endorse")).status, 422);
    const unknown = await call(server, "POST", "/api/v1/accounts/999999999/endorse", alice.token);
    assert.equal(unknown.status, 404);
    assert.equal(
      (await call(server, "POST", "/api/v1/accounts/999999999/unendorse", alice.token)).status,
      404,
    );
    assert.equal(await server.wren.ctx.storage.endorsements.countFrom(bob.account.id), 0);
  });

  it("checks scopes and needs a user", async () => {
    const reader = await call(
      server,
      "POST",
      `/api/v1/accounts/${bob.account.id}/endorse`,
      undefined,
    );
    assert.equal(reader.status, 401);
    const { token } = await createAppToken(server);
    const appOnly = await call(server, "GET", "/api/v1/endorsements", token);
    assert.equal(appOnly.status, 422);
  });

  it("lists the viewer's and a profile's featured accounts, newest first, paged", async () => {
    for (const u of [bob, carol, dave]) assert.equal((await act(alice, u, "endorse")).status, 200);
    const own = await call(server, "GET", "/api/v1/endorsements", alice.token);
    assert.equal(own.status, 200);
    assertMatchesResponse("GET", "/api/v1/endorsements", 200, own.body);
    assert.deepEqual(
      ids(own.body),
      [dave, carol, bob].map((u) => u.account.id),
    );

    const first = await call(server, "GET", "/api/v1/endorsements?limit=2", alice.token);
    assert.deepEqual(
      ids(first.body),
      [dave, carol].map((u) => u.account.id),
    );
    const next = parseLink(first.headers.get("link")).next;
    assert.ok(next, "a next link");
    const second = await call(server, "GET", `${next.pathname}${next.search}`, alice.token);
    assert.deepEqual(ids(second.body), [bob.account.id]);

    // Anyone may read a profile's list, without a token too.
    const path = `/api/v1/accounts/${alice.account.id}/endorsements`;
    const anonymous = await call(server, "GET", path);
    assert.equal(anonymous.status, 200);
    assertMatchesResponse("GET", "/api/v1/accounts/{id}/endorsements", 200, anonymous.body);
    assert.deepEqual(
      ids(anonymous.body),
      [dave, carol, bob].map((u) => u.account.id),
    );
    assert.deepEqual((await call(server, "GET", path, bob.token)).body.length, 3);
    // An account deleted by its server (kept suspended) drops out of the list.
    const { accounts } = server.wren.ctx.storage;
    const carolRecord = await accounts.get(carol.account.id);
    assert.ok(carolRecord);
    await accounts.put({ ...carolRecord, suspended: true });
    assert.deepEqual(
      ids((await call(server, "GET", path)).body),
      [dave, bob].map((u) => u.account.id),
    );
    await accounts.put(carolRecord);
    const unknown = await call(server, "GET", "/api/v1/accounts/999999999/endorsements");
    assert.equal(unknown.status, 404);
    assert.deepEqual(
      (await call(server, "GET", `/api/v1/accounts/${bob.account.id}/endorsements`)).body,
      [],
    );
  });

  it("ends the endorsement with the follow, and a new follow does not bring it back", async () => {
    await act(alice, dave, "endorse");
    await act(alice, carol, "endorse");
    await act(alice, dave, "unfollow");
    assert.equal((await relationshipOf(server, alice, dave)).endorsed, false);
    // A block by the featured account ends alice's follow, and so the endorsement.
    await act(carol, alice, "block");
    assert.equal((await relationshipOf(server, alice, carol)).endorsed, false);
    await act(alice, dave, "follow");
    assert.equal((await relationshipOf(server, alice, dave)).endorsed, false);
    const own = await call(server, "GET", "/api/v1/endorsements", alice.token);
    assert.ok(!ids(own.body).includes(dave.account.id));
    assert.ok(!ids(own.body).includes(carol.account.id));
  });

  it(`features at most ${ENDORSEMENTS_LIMIT} accounts`, async () => {
    const { endorsements } = server.wren.ctx.storage;
    // Fill dave's featured list to the limit directly: making that many users is slow.
    for (let i = 0; i < ENDORSEMENTS_LIMIT; i++) {
      await endorsements.put({
        id: String(9_000_000 + i),
        accountId: dave.account.id,
        targetId: String(8_000_000 + i),
        createdAt: new Date().toISOString(),
      });
    }
    await act(dave, bob, "follow");
    const over = await act(dave, bob, "endorse");
    assert.equal(over.status, 422);
    assert.match(over.body.error, /more than/);
    assert.equal((await relationshipOf(server, dave, bob)).endorsed, false);
    // Room again after one goes: bob is featured.
    await endorsements.delete(dave.account.id, "8000000");
    assert.equal((await act(dave, bob, "endorse")).body.endorsed, true);
    // Endorsing one already featured is still fine at the limit.
    assert.equal((await act(dave, bob, "endorse")).status, 200);
  });
});
