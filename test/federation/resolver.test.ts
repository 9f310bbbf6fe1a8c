// The RemoteResolver over real HTTP between two Wren servers on loopback: one resolves the
// other's actor and status URLs (ids and pages), replies bring their ancestors, our own URLs
// resolve without requests, and domain blocks, deleted and non-public posts are refused.
// Handles (`user@host`) are looked up by WebFinger over HTTPS: those tests use the HTTPS
// federation harness.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { blockDomain, unblockDomain } from "../../src/services/domain-blocks/domain-blocks.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { handle, startFederation, type TestFederation, user } from "../helpers/federation.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import type { Json } from "./helpers.ts";

const ENV = { WREN_ALLOW_PRIVATE_ADDRESSES: "true" };

describe("RemoteResolver between two Wren servers", () => {
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let bHost: string;

  async function post(server: TestServer, user: TestUser, body: Json): Promise<Json> {
    const res = await server.request("/api/v1/statuses", {
      method: "POST",
      token: user.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 200);
    return res.json();
  }

  before(async () => {
    [a, b] = await Promise.all([startTestServer(ENV), startTestServer(ENV)]);
    alice = await createUserWithToken(a, "alice");
    bob = await createUserWithToken(b, "bob");
    bHost = new URL(b.url).host;
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it("resolves an actor URL of the other server into a remote account", async () => {
    const account = await a.wren.ctx.remote.resolveAccount(`${b.url}/users/bob`);
    assert.ok(account);
    assert.equal(account.username, "bob");
    assert.equal(account.domain, bHost);
    assert.equal(account.uri, `${b.url}/users/bob`);
    assert.equal(account.url, `${b.url}/@bob`);
    assert.equal(account.remote?.inbox, `${b.url}/users/bob/inbox`);
    assert.equal(account.remote?.sharedInbox, `${b.url}/inbox`);
    assert.equal(account.remote?.followers, `${b.url}/users/bob/followers`);
    // Counters come from the collections' totalItems.
    assert.equal(account.remote?.statusesCount, 0);
    assert.equal(account.remote?.followersCount, 0);
    // Resolved again: the same record.
    const again = await a.wren.ctx.remote.resolveAccount(`${b.url}/users/bob`);
    assert.equal(again?.id, account.id);
    const res = await a.request(`/api/v1/accounts/${account.id}`);
    const json: Json = await res.json();
    assert.equal(json.acct, `bob@${bHost}`);
  });

  it("fetches a record again once it is a day old", async () => {
    const storage = a.wren.ctx.storage;
    const res = await b.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: bob.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ display_name: "Bob Renamed" }),
    });
    assert.equal(res.status, 200);
    const known = await storage.accounts.findByUri(`${b.url}/users/bob`);
    assert.ok(known?.remote);
    // Fresh: the stored record is used as it is.
    assert.equal((await a.wren.ctx.remote.resolveAccount(`${b.url}/users/bob`))?.displayName, "");
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    await storage.accounts.put({ ...known, remote: { ...known.remote, fetchedAt: old } });
    const refreshed = await a.wren.ctx.remote.resolveAccount(`${b.url}/users/bob`);
    assert.equal(refreshed?.id, known.id);
    assert.equal(refreshed?.displayName, "Bob Renamed");
  });

  it("resolves a profile page URL through its ActivityPub alternate", async () => {
    const account = await a.wren.ctx.remote.resolveAccount(`${b.url}/@bob`);
    assert.equal(account?.uri, `${b.url}/users/bob`);
  });

  it("resolves a status URL (id and page) into a remote status under the author", async () => {
    const posted = await post(b, bob, { status: "Hello from B #wren <script>x</script>" });
    const status = await a.wren.ctx.remote.resolveStatus(posted.uri);
    assert.ok(status);
    assert.equal(status.uri, posted.uri);
    assert.equal(status.local, false);
    assert.equal(status.visibility, "public");
    assert.deepEqual(status.tags, ["wren"]);
    assert.ok(!status.contentHtml.includes("<script"));
    const author = await a.wren.ctx.storage.accounts.get(status.accountId);
    assert.equal(author?.uri, `${b.url}/users/bob`);
    const byPage = await a.wren.ctx.remote.resolveStatus(posted.url);
    assert.equal(byPage?.id, status.id);
  });

  it("fetches the missing ancestors of a resolved reply", async () => {
    const root = await post(b, bob, { status: "root" });
    const middle = await post(b, bob, { status: "middle", in_reply_to_id: root.id });
    const leaf = await post(b, bob, { status: "leaf", in_reply_to_id: middle.id });
    const status = await a.wren.ctx.remote.resolveStatus(leaf.uri);
    assert.ok(status);
    const storage = a.wren.ctx.storage;
    const parent = await storage.statuses.findByUri(middle.uri);
    const grandparent = await storage.statuses.findByUri(root.uri);
    assert.ok(parent && grandparent);
    assert.equal(status.inReplyToId, parent.id);
    assert.equal(parent.inReplyToId, grandparent.id);
    assert.equal(status.conversationId, grandparent.id);
    const res = await a.request(`/api/v1/statuses/${status.id}/context`);
    const context: Json = await res.json();
    assert.deepEqual(
      context.ancestors.map((s: Json) => s.uri),
      [root.uri, middle.uri],
    );
  });

  it("resolves our own URLs to our own records", async () => {
    const mine = await post(a, alice, { status: "local" });
    const account = await a.wren.ctx.remote.resolveAccount(`${a.url}/users/alice`);
    assert.equal(account?.id, alice.account.id);
    const byHandle = await a.wren.ctx.remote.resolveAccount(`@alice@${new URL(a.url).host}`);
    assert.equal(byHandle?.id, alice.account.id);
    assert.equal((await a.wren.ctx.remote.resolveStatus(mine.uri))?.id, mine.id);
    assert.equal((await a.wren.ctx.remote.resolveStatus(mine.url))?.id, mine.id);
  });

  it("finds nothing for deleted, non-public, missing and malformed targets", async () => {
    const gone = await post(b, bob, { status: "soon gone" });
    const del = await b.request(`/api/v1/statuses/${gone.id}`, {
      method: "DELETE",
      token: bob.token,
    });
    assert.equal(del.status, 200);
    assert.equal(await a.wren.ctx.remote.resolveStatus(gone.uri), undefined);
    const secret = await post(b, bob, { status: "followers only", visibility: "private" });
    assert.equal(await a.wren.ctx.remote.resolveStatus(secret.uri), undefined);
    assert.equal(await a.wren.ctx.remote.resolveAccount(`${b.url}/users/nobody`), undefined);
    assert.equal(await a.wren.ctx.remote.resolveStatus(`${b.url}/users/bob/statuses/1`), undefined);
    assert.equal(await a.wren.ctx.remote.resolveAccount("javascript:alert(1)"), undefined);
    assert.equal(await a.wren.ctx.remote.resolveStatus("not a url"), undefined);
    // A status URL is not an account, nor an account URL a status.
    assert.equal(await a.wren.ctx.remote.resolveStatus(`${b.url}/users/bob`), undefined);
  });

  it("refuses everything of a blocked domain", async () => {
    const ctx = a.wren.ctx;
    const carol = await createUserWithToken(b, "carol");
    const posted = await post(b, carol, { status: "from a blocked server" });
    await blockDomain(ctx, bHost);
    try {
      assert.equal(await ctx.remote.resolveAccount(`${b.url}/users/carol`), undefined);
      assert.equal(await ctx.remote.resolveStatus(posted.uri), undefined);
      assert.equal(await ctx.storage.accounts.findByUri(`${b.url}/users/carol`), undefined);
    } finally {
      await unblockDomain(ctx, bHost);
    }
    assert.equal((await ctx.remote.resolveAccount(`${b.url}/users/carol`))?.username, "carol");
  });
});

describe("RemoteResolver with handles (HTTPS)", () => {
  let fed: TestFederation;

  before(async () => {
    fed = await startFederation(2);
  });
  after(() => fed.close());

  it("finds user@host, @user@host and acct:user@host by WebFinger", async () => {
    const [a, b] = fed.instances;
    assert.ok(a && b);
    await user(b, "dana");
    const remote = a.wren.ctx.remote;
    const found = await remote.resolveAccount(handle(b, "dana"));
    assert.ok(found);
    assert.equal(found.username, "dana");
    assert.equal(found.domain, b.domain);
    assert.equal(found.uri, `${b.url}/users/dana`);
    assert.equal((await remote.resolveAccount(`@${handle(b, "DANA")}`))?.id, found.id);
    assert.equal((await remote.resolveAccount(`acct:${handle(b, "dana")}`))?.id, found.id);
    assert.equal(await remote.resolveAccount(handle(b, "nobody")), undefined);
  });
});
