// A list's members: only accounts the owner follows (or asked to follow) or the owner, all or
// none per request; paged by membership with Link headers, or all at once with limit=0;
// GET /api/v1/accounts/:id/lists; and members leave the owner's lists when the follow ends or
// the list is deleted.

import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { listMembershipListener } from "../../src/services/lists/listener.ts";
import { deleteRemoteActor } from "../../src/services/remote/remote-delete-actor.ts";
import { call, type Json, parseLink } from "../graph/helpers.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("list members", () => {
  let server: TestServer;
  let owner: TestUser;
  let others: TestUser[];
  let locked: TestUser;
  let stranger: TestUser;
  let listId: string;

  const membersPath = () => `/api/v1/lists/${listId}/accounts`;
  const memberIds = async (path = `${membersPath()}?limit=0`) => {
    const res = await call(server, "GET", path, owner.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("GET", membersPath(), 200, res.body);
    return res.body.map((a: Json) => a.id) as string[];
  };
  const add = (ids: string[], token = owner.token, id = listId) =>
    call(server, "POST", `/api/v1/lists/${id}/accounts`, token, { account_ids: ids });
  const listsOf = async (account: TestUser, token = owner.token) => {
    const path = `/api/v1/accounts/${account.account.id}/lists`;
    const res = await call(server, "GET", path, token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", path, 200, res.body);
    return res.body.map((l: Json) => l.title) as string[];
  };

  before(async () => {
    server = await startTestServer({ WREN_RATE_LIMIT_REQUESTS: "100000" });
    const users = await createUsers(server, "owner", "a1", "a2", "a3", "a4", "a5", "lock", "str");
    [owner, locked, stranger] = [users[0], users[6], users[7]];
    others = users.slice(1, 6);
    for (const other of others) {
      await call(server, "POST", `/api/v1/accounts/${other.account.id}/follow`, owner.token);
    }
    const lock = await call(server, "PATCH", "/api/v1/accounts/update_credentials", locked.token, {
      locked: true,
    });
    assert.equal(lock.status, 200);
    const asked = await call(
      server,
      "POST",
      `/api/v1/accounts/${locked.account.id}/follow`,
      owner.token,
    );
    assert.equal(asked.body.requested, true);
  });
  after(() => server.close());

  beforeEach(async () => {
    const res = await call(server, "POST", "/api/v1/lists", owner.token, { title: "Main" });
    listId = res.body.id;
  });

  it("adds followed and requested accounts and the owner, newest member first", async () => {
    const [a1, a2, a3] = others as [TestUser, TestUser, TestUser];
    const res = await add([a2.account.id, a1.account.id]);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
    // account_ids[] as a form body, as Mastodon documents it.
    const form = await server.request(membersPath(), {
      method: "POST",
      token: owner.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `account_ids[]=${a3.account.id}&account_ids[]=${locked.account.id}`,
    });
    assert.equal(form.status, 200, await form.text());
    assert.equal((await add([owner.account.id])).status, 200);
    const ids = await memberIds();
    assert.deepEqual(
      new Set(ids.slice(0, 3)),
      new Set([owner.account.id, locked.account.id, a3.account.id]),
    );
    assert.deepEqual(new Set(ids.slice(3)), new Set([a1.account.id, a2.account.id]));
    assert.equal(ids[0], owner.account.id);
  });

  it("refuses, all or none, accounts not followed, unknown or already in the list", async () => {
    const [a1, a2] = others as [TestUser, TestUser];
    await add([a1.account.id]);

    const notFollowed = await add([a2.account.id, stranger.account.id]);
    assert.equal(notFollowed.status, 422);
    assert.match(notFollowed.body.error, /follow/i);
    const unknown = await add([a2.account.id, "999999999"]);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: "Record not found" });
    const twice = await add([a2.account.id, a1.account.id]);
    assert.equal(twice.status, 422);
    assert.equal(twice.body.error, "Validation failed: Account has already been taken");
    assert.deepEqual(await memberIds(), [a1.account.id]);

    for (const body of [{}, { account_ids: [] }, { account_ids: ["abc"] }, { account_ids: "x1" }]) {
      for (const method of ["POST", "DELETE"] as const) {
        const res = await call(server, method, membersPath(), owner.token, body);
        assert.equal(res.status, 422, `${method} ${JSON.stringify(body)}`);
        assert.equal(typeof res.body.error, "string");
      }
    }
    for (const query of ["max_id=abc", "limit=many"]) {
      const res = await call(server, "GET", `${membersPath()}?${query}`, owner.token);
      assert.equal(res.status, 422, query);
    }
    assert.deepEqual(await memberIds(), [a1.account.id]);
  });

  it("pages members through the Link header, or answers all with limit=0", async () => {
    const ids = others.map((o) => o.account.id);
    for (const id of ids) assert.equal((await add([id])).status, 200);
    const newestFirst = [...ids].reverse();

    const seen: string[] = [];
    let next: string | undefined = `${membersPath()}?limit=2`;
    let pages = 0;
    while (next) {
      const res = await call(server, "GET", next, owner.token);
      assert.equal(res.status, 200);
      if (res.body.length === 0) {
        assert.equal(res.headers.get("link"), null);
        break;
      }
      pages++;
      assert.ok(res.body.length <= 2);
      seen.push(...res.body.map((a: Json) => a.id));
      const links = parseLink(res.headers.get("link"));
      assert.ok(links.next && links.prev);
      assert.equal(links.next.searchParams.get("limit"), "2");
      next = `${links.next.pathname}${links.next.search}`;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, newestFirst);

    const all = await call(server, "GET", `${membersPath()}?limit=0`, owner.token);
    assert.deepEqual(
      all.body.map((a: Json) => a.id),
      newestFirst,
    );
    assert.equal(all.headers.get("link"), null);
    const first = await call(server, "GET", membersPath(), owner.token);
    assert.equal(first.body.length, 5);
    assert.ok(first.headers.get("link"));
  });

  it("removes members, and an account not in the list is no error", async () => {
    const [a1, a2] = others as [TestUser, TestUser];
    await add([a1.account.id, a2.account.id]);
    const res = await call(server, "DELETE", membersPath(), owner.token, {
      account_ids: [a1.account.id, stranger.account.id],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
    assert.deepEqual(await memberIds(), [a2.account.id]);
    // account_ids[] in the query string, as some clients send a DELETE.
    const query = await server.request(`${membersPath()}?account_ids[]=${a2.account.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    assert.equal(query.status, 200);
    assert.deepEqual(await memberIds(), []);
  });

  it("answers which of the viewer's lists hold an account", async () => {
    const [a1, a2] = others as [TestUser, TestUser];
    const second = (await call(server, "POST", "/api/v1/lists", owner.token, { title: "Second" }))
      .body.id;
    await add([a1.account.id]);
    await add([a1.account.id, a2.account.id], owner.token, second);
    const holding = async (account: TestUser, token = owner.token) => {
      const path = `/api/v1/accounts/${account.account.id}/lists`;
      const res = await call(server, "GET", path, token);
      assert.equal(res.status, 200);
      assertMatchesResponse("GET", path, 200, res.body);
      return res.body.map((l: Json) => l.id) as string[];
    };
    assert.deepEqual((await holding(a1)).slice(-2), [listId, second]);
    assert.ok((await holding(a2)).includes(second));
    assert.ok(!(await holding(a2)).includes(listId));
    const full = await call(server, "GET", `/api/v1/accounts/${a2.account.id}/lists`, owner.token);
    assert.deepEqual(full.body.at(-1), {
      id: second,
      title: "Second",
      replies_policy: "list",
      exclusive: false,
    });
    // Someone else's lists are not the viewer's business.
    assert.deepEqual(await holding(a1, stranger.token), []);
    const unknown = await call(server, "GET", "/api/v1/accounts/999999999/lists", owner.token);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: "Record not found" });
  });

  it("drops an account from the owner's lists when the follow or request ends", async () => {
    const [, , a3, a4, a5] = others as [TestUser, TestUser, TestUser, TestUser, TestUser];
    await add([a3.account.id, a4.account.id, a5.account.id, locked.account.id]);

    await call(server, "POST", `/api/v1/accounts/${a3.account.id}/unfollow`, owner.token);
    await call(
      server,
      "POST",
      `/api/v1/accounts/${owner.account.id}/remove_from_followers`,
      a4.token,
    );
    await call(server, "POST", `/api/v1/accounts/${owner.account.id}/block`, a5.token);
    await call(server, "POST", `/api/v1/follow_requests/${owner.account.id}/reject`, locked.token);
    assert.deepEqual(await memberIds(), []);
    for (const gone of [a3, a4, a5, locked]) assert.ok(!(await listsOf(gone)).includes("Main"));

    // Following again does not bring anyone back into a list.
    await call(server, "POST", `/api/v1/accounts/${a3.account.id}/follow`, owner.token);
    assert.deepEqual(await memberIds(), []);
    assert.equal((await add([a3.account.id])).status, 200);
    assert.deepEqual(await memberIds(), [a3.account.id]);
  });

  it("drops the members of a deleted list", async () => {
    const [a1] = others as [TestUser];
    await add([a1.account.id]);
    const storage = server.wren.ctx.storage;
    assert.deepEqual(await storage.listMembers.allTargetsFrom(listId), [a1.account.id]);
    assert.equal(
      (await call(server, "DELETE", `/api/v1/lists/${listId}`, owner.token)).status,
      200,
    );
    assert.deepEqual(await storage.listMembers.allTargetsFrom(listId), []);
    assert.equal((await add([a1.account.id])).status, 404);
  });

  it("drops a remote member whose actor was deleted by its server", async () => {
    const ctx = server.wren.ctx;
    const remote = remoteAccountRecord(server, "far", "remote.example");
    await ctx.storage.accounts.put(remote);
    await ctx.storage.follows.put({
      id: ctx.ids.next(),
      accountId: owner.account.id,
      targetId: remote.id,
      createdAt: ctx.clock.now().toISOString(),
      showReblogs: true,
      notify: false,
      languages: null,
      uri: null,
    });
    assert.equal((await add([remote.id])).status, 200);
    assert.deepEqual(await memberIds(), [remote.id]);
    await deleteRemoteActor(ctx, remote);
    assert.deepEqual(await memberIds(), []);
    assert.deepEqual(await ctx.storage.listMembers.allTargetsFrom(listId), []);
  });

  it("leaves suspended members out of the member list", async () => {
    const [a1, a2] = others as [TestUser, TestUser];
    await add([a1.account.id, a2.account.id]);
    const ctx = server.wren.ctx;
    const account = await ctx.storage.accounts.get(a1.account.id);
    assert.ok(account);
    await ctx.storage.accounts.put({ ...account, suspended: true });
    try {
      assert.deepEqual(await memberIds(), [a2.account.id]);
    } finally {
      await ctx.storage.accounts.put(account);
    }
    assert.deepEqual(await memberIds(), [a2.account.id, a1.account.id]);
  });

  it("keeps a member whose follow is back by the time a late retry of the event runs", async () => {
    const [a1] = others as [TestUser];
    await add([a1.account.id]);
    const follow = await server.wren.ctx.storage.follows.get(owner.account.id, a1.account.id);
    assert.ok(follow);
    const listener = listMembershipListener(server.wren.ctx);
    await listener({ type: "account.unfollowed", follow, cause: "unfollow" });
    await listener({ type: "follow_request.closed", request: follow, outcome: "rejected" });
    assert.deepEqual(await memberIds(), [a1.account.id]);
    // An accepted request keeps the member, whatever the follow edges say.
    await server.wren.ctx.storage.follows.delete(owner.account.id, a1.account.id);
    await listener({ type: "follow_request.closed", request: follow, outcome: "accepted" });
    assert.deepEqual(await memberIds(), [a1.account.id]);
    await listener({ type: "account.unfollowed", follow, cause: "unfollow" });
    assert.deepEqual(await memberIds(), []);
    await server.wren.ctx.storage.follows.put(follow);
  });
});
