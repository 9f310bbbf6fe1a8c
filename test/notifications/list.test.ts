// API v1 notification endpoints: filters, the pagination walk with Link headers, one
// notification, dismiss, clear, the unread count against the read marker, and the errors.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { act, call, callEmpty, type Json, links, notifications, postStatus } from "./helpers.ts";

describe("GET /api/v1/notifications and friends", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  /** alice's notifications, newest first: favourite(carol), follow(bob), mention(bob), favourite(bob), follow(carol). */
  let all: Json[];

  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
    const status = await postStatus(server, alice, "hello");
    await act(server, carol, `/api/v1/accounts/${alice.account.id}/follow`);
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    await postStatus(server, bob, "@alice hi");
    await act(server, bob, `/api/v1/accounts/${alice.account.id}/follow`);
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    all = await notifications(server, alice);
  });
  after(() => server.close());

  const kinds = (list: Json[]) => list.map((n) => `${n.type}:${n.account.username}`);

  it("lists newest first with every entity embedded", () => {
    assert.deepEqual(kinds(all), [
      "favourite:carol",
      "follow:bob",
      "mention:bob",
      "favourite:bob",
      "follow:carol",
    ]);
    const ids = all.map((n) => BigInt(n.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)),
    );
  });

  it("filters by types[], exclude_types[] and account_id", async () => {
    const favs = await notifications(server, alice, "?types[]=favourite");
    assert.deepEqual(kinds(favs), ["favourite:carol", "favourite:bob"]);
    const two = await notifications(server, alice, "?types[]=follow&types[]=mention");
    assert.deepEqual(kinds(two), ["follow:bob", "mention:bob", "follow:carol"]);
    const notFollows = await notifications(server, alice, "?exclude_types[]=follow");
    assert.deepEqual(kinds(notFollows), ["favourite:carol", "mention:bob", "favourite:bob"]);
    const fromBob = await notifications(server, alice, `?account_id=${bob.account.id}`);
    assert.deepEqual(kinds(fromBob), ["follow:bob", "mention:bob", "favourite:bob"]);
    const both = await notifications(
      server,
      alice,
      `?account_id=${carol.account.id}&exclude_types[]=favourite`,
    );
    assert.deepEqual(kinds(both), ["follow:carol"]);
    // Types this server never produces are ignored where they exclude and match nothing alone.
    assert.equal((await notifications(server, alice, "?exclude_types[]=admin.sign_up")).length, 5);
    assert.deepEqual(await notifications(server, alice, "?types[]=admin.sign_up"), []);
  });

  it("walks every page through the Link header, both ways", async () => {
    const seen: string[] = [];
    let next: string | undefined = "/api/v1/notifications?limit=2";
    let pages = 0;
    let last: Response | undefined;
    while (next) {
      const res = await server.request(next, { token: alice.token });
      assert.equal(res.status, 200);
      const body = (await res.json()) as Json[];
      assertMatchesResponse("GET", "/api/v1/notifications", 200, body);
      if (body.length === 0) break;
      assert.ok(body.length <= 2);
      seen.push(...body.map((n) => n.id));
      last = res;
      next = links(res).next;
      pages++;
    }
    assert.deepEqual(
      seen,
      all.map((n) => n.id),
    );
    assert.equal(pages, 3);
    // From the last page, prev (min_id) climbs back to the two just above it.
    const prev = links(last as Response).prev as string;
    assert.match(prev, /min_id=/);
    const up = (await (await server.request(prev, { token: alice.token })).json()) as Json[];
    assert.deepEqual(
      up.map((n) => n.id),
      all.slice(2, 4).map((n) => n.id),
    );
    const sinceNewest = await notifications(server, alice, `?since_id=${all[1].id}`);
    assert.deepEqual(
      sinceNewest.map((n) => n.id),
      [all[0].id],
    );
  });

  it("answers the default and maximum limits", async () => {
    const [dave] = await createUsers(server, "dave");
    const ctx = server.wren.ctx;
    for (let i = 0; i < 85; i++) {
      const id = ctx.ids.next();
      await ctx.storage.notifications.put({
        id,
        accountId: dave.account.id,
        type: "follow",
        fromAccountId: alice.account.id,
        statusId: null,
        groupKey: `ungrouped-${id}`,
        createdAt: ctx.clock.now().toISOString(),
      });
    }
    assert.equal((await notifications(server, dave)).length, 40);
    assert.equal((await notifications(server, dave, "?limit=500")).length, 80);
  });

  it("shows one notification, only to its recipient", async () => {
    const one = await call(server, "GET", `/api/v1/notifications/${all[2].id}`, {
      token: alice.token,
    });
    assert.deepEqual(one, all[2]);
    await call(server, "GET", `/api/v1/notifications/${all[2].id}`, { token: bob.token }, 404);
    await call(server, "GET", "/api/v1/notifications/12345", { token: alice.token }, 404);
  });

  it("counts unread notifications past the notifications marker", async () => {
    const count = (query = "", user = alice) =>
      call(server, "GET", `/api/v1/notifications/unread_count${query}`, { token: user.token });
    assert.deepEqual(await count(), { count: 5 });
    assert.deepEqual(await count("?limit=3"), { count: 3 });
    assert.deepEqual(await count("?types[]=favourite"), { count: 2 });
    assert.deepEqual(await count(`?account_id=${carol.account.id}`), { count: 2 });
    await call(server, "POST", "/api/v1/markers", {
      token: alice.token,
      json: { notifications: { last_read_id: all[2].id } },
    });
    assert.deepEqual(await count(), { count: 2 });
    assert.deepEqual(await count("?exclude_types[]=follow"), { count: 1 });
  });

  it("dismisses one notification and clears them all", async () => {
    const target = all[3];
    await callEmpty(server, bob, `/api/v1/notifications/${target.id}/dismiss`, 404);
    await callEmpty(server, alice, `/api/v1/notifications/${target.id}/dismiss`);
    await call(server, "GET", `/api/v1/notifications/${target.id}`, { token: alice.token }, 404);
    await callEmpty(server, alice, `/api/v1/notifications/${target.id}/dismiss`, 404);
    assert.equal((await notifications(server, alice)).length, 4);

    await callEmpty(server, alice, "/api/v1/notifications/clear");
    assert.deepEqual(await notifications(server, alice), []);
    assert.equal((await notifications(server, bob)).length, 0, "bob never had any");
  });

  it("refuses requests without a user token or the scope, and bad parameters", async () => {
    const res = await server.request("/api/v1/notifications");
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), { error: "The access token is invalid" });
    const reader = await createUserWithToken(server, "reader", ["read:statuses"]);
    await call(server, "GET", "/api/v1/notifications", { token: reader.token }, 403);
    const readOnly = await createUserWithToken(server, "readonly", ["read"]);
    await call(server, "GET", "/api/v1/notifications", { token: readOnly.token });
    await callEmpty(server, readOnly, "/api/v1/notifications/clear", 403);
    for (const query of ["account_id=abc", "limit=many", "max_id=x1"]) {
      const bad = await server.request(`/api/v1/notifications?${query}`, { token: alice.token });
      assert.equal(bad.status, 422, query);
      assert.match(((await bad.json()) as Json).error, /^Validation failed: /);
    }
  });
});
