// A user's own domain blocks (/api/v1/domain_blocks): the list, validation and scopes, the
// Relationship's `domain_blocking`, follows ended both ways and new ones refused, and the
// server's accounts hidden from the blocker's timelines, threads and notifications — and only
// from the blocker's.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import { favouriteStatus } from "../../src/services/interactions/favourite.ts";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { receiveFollow } from "../../src/services/remote/remote-follow.ts";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord, statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, parseLink } from "./helpers.ts";

describe("user domain blocks", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    server = await startTestServer();
    [alice, bob] = await createUsers(server, "alice", "bob");
  });
  after(() => server.close());

  async function remote(username: string, domain: string): Promise<Account> {
    // Indexable: its public posts are found by search.
    const account = remoteAccountRecord(server, username, domain, { indexable: true });
    await server.wren.ctx.storage.accounts.put(account);
    return account;
  }

  async function blockDomain(user: TestUser, domain: string) {
    const res = await call(server, "POST", "/api/v1/domain_blocks", user.token, { domain });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {});
  }

  async function listed(user: TestUser, query = ""): Promise<Json> {
    const res = await call(server, "GET", `/api/v1/domain_blocks${query}`, user.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/domain_blocks", 200, res.body);
    return res;
  }

  it("lists the viewer's blocked domains newest first, normalised, paged by Link", async () => {
    const carol = await createUserWithToken(server, "carol");
    for (const domain of ["one.example", "TWO.Example.", "three.example:8443"]) {
      await blockDomain(carol, domain);
    }
    // Blocking again keeps the first block (and its place in the list).
    await blockDomain(carol, "one.example");
    const all = await listed(carol);
    assert.deepEqual(all.body, ["three.example:8443", "two.example", "one.example"]);

    const first = await listed(carol, "?limit=2");
    assert.deepEqual(first.body, ["three.example:8443", "two.example"]);
    const next = parseLink(first.headers.get("link")).next;
    assert.ok(next, "a next link");
    const second = await listed(carol, next.search);
    assert.deepEqual(second.body, ["one.example"]);

    // Someone else's list is their own.
    assert.deepEqual((await listed(bob)).body, []);

    const res = await call(server, "DELETE", "/api/v1/domain_blocks", carol.token, {
      domain: "Two.example",
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {});
    assert.deepEqual((await listed(carol)).body, ["three.example:8443", "one.example"]);
    // Unblocking what is not blocked is no error; the domain may come as a query parameter.
    const again = await call(
      server,
      "DELETE",
      "/api/v1/domain_blocks?domain=two.example",
      carol.token,
    );
    assert.equal(again.status, 200);
  });

  it("refuses a missing or malformed domain with 422 and enforces scopes", async () => {
    for (const body of [{}, { domain: "" }, { domain: "has space.example" }, { domain: "a/b" }]) {
      for (const method of ["POST", "DELETE"] as const) {
        const res = await call(server, method, "/api/v1/domain_blocks", alice.token, body);
        assert.equal(res.status, 422, `${method} ${JSON.stringify(body)}`);
        assert.equal(typeof res.body.error, "string");
      }
    }
    const limit = await call(server, "GET", "/api/v1/domain_blocks?limit=nope", alice.token);
    assert.equal(limit.status, 422);
    assert.equal(typeof limit.body.error, "string");

    const anonymous = await call(server, "GET", "/api/v1/domain_blocks");
    assert.equal(anonymous.status, 401);
    const tokenFor = async (scope: string) =>
      (
        await issueAccessToken(server.wren.ctx, {
          app: alice.app,
          accountId: alice.account.id,
          scopes: [scope],
          withRefreshToken: false,
        })
      ).secret;
    const readOnly = await tokenFor("read:blocks");
    const writeOnly = await tokenFor("write:blocks");
    const follow = await tokenFor("follow");
    const statuses = await tokenFor("read:statuses");
    assert.equal((await call(server, "GET", "/api/v1/domain_blocks", readOnly)).status, 200);
    assert.equal((await call(server, "GET", "/api/v1/domain_blocks", statuses)).status, 403);
    assert.equal((await call(server, "GET", "/api/v1/domain_blocks", follow)).status, 200);
    const body = { domain: "scoped.example" };
    assert.equal((await call(server, "POST", "/api/v1/domain_blocks", readOnly, body)).status, 403);
    assert.equal(
      (await call(server, "POST", "/api/v1/domain_blocks", writeOnly, body)).status,
      200,
    );
    assert.equal((await call(server, "DELETE", "/api/v1/domain_blocks", follow, body)).status, 200);
    assert.deepEqual((await listed(alice)).body, []);
  });

  it("ends follows both ways, refuses new ones, and shows in the Relationship", async () => {
    const dana = await createUserWithToken(server, "dana");
    const eve = await remote("eve", "blocked.example");
    const fred = await remote("fred", "blocked.example");
    const gina = await remote("gina", "blocked.example");
    const other = await remote("olga", "other.example");
    const ctx = server.wren.ctx;
    // dana follows eve (accepted by eve's server), fred follows dana, gina asks to follow
    // dana (locked meanwhile), and olga on another server follows dana.
    await call(server, "POST", `/api/v1/accounts/${eve.id}/follow`, dana.token);
    const request = await ctx.storage.followRequests.get(dana.account.id, eve.id);
    assert.ok(request);
    await ctx.storage.followRequests.delete(dana.account.id, eve.id);
    await ctx.storage.follows.put(request);
    await receiveFollow(ctx, fred, dana.account, `${fred.uri}#follow`);
    await receiveFollow(ctx, other, dana.account, `${other.uri}#follow`);
    await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: dana.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ locked: true }),
    });
    const locked = await ctx.storage.accounts.get(dana.account.id);
    assert.ok(locked);
    await receiveFollow(ctx, gina, locked, `${gina.uri}#follow`);
    assert.ok(await ctx.storage.followRequests.get(gina.id, dana.account.id));

    await blockDomain(dana, "Blocked.Example");
    await server.wren.jobs.runDue();

    const ids = [eve.id, fred.id, gina.id, other.id];
    const rel = await call(
      server,
      "GET",
      `/api/v1/accounts/relationships?${ids.map((id) => `id[]=${id}`).join("&")}`,
      dana.token,
    );
    assertMatchesResponse("GET", "/api/v1/accounts/relationships", 200, rel.body);
    const byId = new Map(rel.body.map((r: Json) => [r.id, r]));
    for (const id of [eve.id, fred.id, gina.id]) {
      const r = byId.get(id) as Json;
      assert.equal(r.domain_blocking, true, id);
      assert.equal(r.following, false, id);
      assert.equal(r.followed_by, false, id);
      assert.equal(r.requested_by, false, id);
    }
    // Another server's follower stays, and is not domain-blocked.
    const o = byId.get(other.id) as Json;
    assert.equal(o.domain_blocking, false);
    assert.equal(o.followed_by, true);
    // Someone else's view of the same accounts is untouched.
    const bobView = await call(
      server,
      "GET",
      `/api/v1/accounts/relationships?id[]=${eve.id}`,
      bob.token,
    );
    assert.equal(bobView.body[0].domain_blocking, false);

    const counts = await call(server, "GET", `/api/v1/accounts/${dana.account.id}`);
    assert.equal(counts.body.following_count, 0);
    assert.equal(counts.body.followers_count, 1);

    // No new follow of that server's accounts, nor from them.
    const refused = await call(server, "POST", `/api/v1/accounts/${eve.id}/follow`, dana.token);
    assert.equal(refused.status, 403);
    assert.equal(typeof refused.body.error, "string");
    const outcome = await receiveFollow(ctx, fred, locked, `${fred.uri}#again`);
    assert.equal(outcome, "refused");

    // Unblocking lifts the refusal but restores no follow.
    await call(server, "DELETE", "/api/v1/domain_blocks", dana.token, {
      domain: "blocked.example",
    });
    const after = await call(server, "POST", `/api/v1/accounts/${eve.id}/follow`, dana.token);
    assert.equal(after.status, 200);
    assert.equal(after.body.domain_blocking, false);
    assert.equal(after.body.requested, true);
  });

  it("hides the server's posts and notifications from the blocker only", async () => {
    const hana = await createUserWithToken(server, "hana");
    const ivan = await remote("ivan", "noisy.example");
    const ctx = server.wren.ctx;
    const own = (await call(server, "POST", "/api/v1/statuses", hana.token, { status: "mine" }))
      .body;
    const post = statusRecord(server, ivan, { text: "noise", contentHtml: "<p>noise</p>" });
    await ctx.storage.statuses.put(post);
    const reply = statusRecord(server, ivan, {
      inReplyToId: own.id,
      inReplyToAccountId: hana.account.id,
      conversationId: (await ctx.storage.statuses.get(own.id))?.conversationId,
      mentionIds: [hana.account.id],
    });
    await ctx.storage.statuses.put(reply);
    await favouriteStatus(ctx, ivan.id, own.id);
    // hana follows bob, who boosts ivan's post into her home.
    await call(server, "POST", `/api/v1/accounts/${bob.account.id}/follow`, hana.token);
    const boost = await call(server, "POST", `/api/v1/statuses/${post.id}/reblog`, bob.token);
    assert.equal(boost.status, 200);
    const homeBoosts = async () =>
      (await call(server, "GET", "/api/v1/timelines/home", hana.token)).body
        .filter((s: Json) => s.reblog !== null)
        .map((s: Json) => s.reblog.id);

    const publicIds = async (user: TestUser) =>
      (await call(server, "GET", "/api/v1/timelines/public?limit=40", user.token)).body.map(
        (s: Json) => s.id,
      );
    const contextIds = async (user: TestUser) =>
      (
        await call(server, "GET", `/api/v1/statuses/${own.id}/context`, user.token)
      ).body.descendants.map((s: Json) => s.id);
    const notificationsFrom = async (user: TestUser) =>
      (await call(server, "GET", "/api/v1/notifications", user.token)).body
        .filter((n: Json) => n.account.id === ivan.id)
        .map((n: Json) => n.type);

    const searched = async (user: TestUser) =>
      (
        await call(server, "GET", "/api/v2/search?q=noise&type=statuses", user.token)
      ).body.statuses.map((s: Json) => s.id);

    assert.ok((await publicIds(hana)).includes(post.id));
    assert.deepEqual(await contextIds(hana), [reply.id]);
    assert.deepEqual(await searched(hana), [post.id]);
    assert.deepEqual(await homeBoosts(), [post.id]);
    assert.deepEqual(await notificationsFrom(hana), ["favourite"]);
    const unread = async () =>
      (await call(server, "GET", "/api/v1/notifications/unread_count", hana.token)).body.count;
    assert.equal(await unread(), 1);

    await blockDomain(hana, "noisy.example");
    await server.wren.jobs.runDue();
    // Deleted, as Mastodon does, not only hidden: the badge count drops too.
    assert.equal(await unread(), 0);

    assert.ok(!(await publicIds(hana)).includes(post.id));
    assert.deepEqual(await contextIds(hana), []);
    assert.deepEqual(await searched(hana), []);
    assert.deepEqual(await homeBoosts(), []);
    assert.deepEqual(await notificationsFrom(hana), []);
    // A new interaction from that server notifies no one.
    const second = (await call(server, "POST", "/api/v1/statuses", hana.token, { status: "2" }))
      .body;
    await favouriteStatus(ctx, ivan.id, second.id);
    assert.equal(
      await ctx.storage.notifications.find(hana.account.id, "favourite", ivan.id, second.id),
      undefined,
    );
    // Others still see it all.
    assert.ok((await publicIds(bob)).includes(post.id));
    assert.deepEqual(await contextIds(bob), [reply.id]);
    assert.deepEqual(await searched(bob), [post.id]);

    await call(server, "DELETE", "/api/v1/domain_blocks", hana.token, { domain: "noisy.example" });
    assert.ok((await publicIds(hana)).includes(post.id));
    assert.deepEqual(await contextIds(hana), [reply.id]);
    assert.deepEqual(await homeBoosts(), [post.id]);
    assert.deepEqual(await notificationsFrom(hana), []);
  });
});
