// The collections an actor document names (outbox, followers, following, featured, featured
// tags), paged as peers walk them, and the instance actor with its reserved name.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import { createUserWithToken, TEST_PASSWORD, type TestUser } from "../helpers/accounts.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { post } from "../statuses/helpers.ts";
import { apDocument, apGet, type Json } from "./helpers.ts";
import { storeFollow } from "./signed-get.ts";

const list = (value: unknown): Json[] => (value === undefined ? [] : [value].flat());

/** Walks a paged collection from `first` along `next`; returns the collection and every item. */
async function walk(server: TestServer, id: string): Promise<{ collection: Json; items: Json[] }> {
  const collection = await apDocument(server, id);
  assert.equal(collection.type, "OrderedCollection");
  assert.equal(collection.id, id);
  assert.equal(collection.orderedItems, undefined, "items come in pages");
  const items: Json[] = [];
  let next: string | undefined = collection.first;
  let pages = 0;
  while (next !== undefined) {
    const page = await apDocument(server, next);
    assert.equal(page.type, "OrderedCollectionPage");
    assert.equal(page.partOf, id);
    const pageItems = list(page.orderedItems);
    assert.ok(pageItems.length <= 20, `page of ${pageItems.length}`);
    items.push(...pageItems);
    next = page.next;
    pages += 1;
    assert.ok(pages < 20, "runaway pagination");
  }
  return { collection, items };
}

async function request(server: TestServer, user: TestUser, method: string, path: string) {
  const res = await server.request(path, { method, token: user.token });
  const body: Json = await res.json();
  assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(body)}`);
  return body;
}

describe("ActivityPub collections", () => {
  let server: TestServer;
  let alice: TestUser;
  let carol: TestUser;
  let uri: string;

  before(async () => {
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    alice = await createUserWithToken(server, "alice", ["read", "write", "follow"]);
    carol = await createUserWithToken(server, "carol", ["read", "write", "follow"]);
    uri = `${server.url}/users/alice`;
  });

  after(() => server.close());

  it("are the URLs the actor document names", async () => {
    const actor = await apDocument(server, "/users/alice");
    for (const key of ["outbox", "followers", "following", "featured", "featuredTags"]) {
      const collection = await apDocument(server, actor[key]);
      assert.equal(collection.id, actor[key], key);
      assert.match(collection.type, /^Ordered/);
    }
    assert.equal(actor.outbox, `${uri}/outbox`);
    assert.equal(actor.featured, `${uri}/collections/featured`);
  });

  it("outbox: Create and Announce of public and unlisted statuses, newest first, paged", async () => {
    const posted: Json[] = [];
    for (let i = 0; i < 21; i++) posted.push(await post(server, alice, { status: `Post ${i}` }));
    const unlisted = await post(server, alice, { status: "Unlisted", visibility: "unlisted" });
    await post(server, alice, { status: "Private", visibility: "private" });
    await post(server, alice, { status: "@carol direct", visibility: "direct" });
    const byCarol = await post(server, carol, { status: "Carol's" });
    const boost = await request(server, alice, "POST", `/api/v1/statuses/${byCarol.id}/reblog`);
    const gone = await post(server, alice, { status: "Deleted" });
    await request(server, alice, "DELETE", `/api/v1/statuses/${gone.id}`);

    const { collection, items } = await walk(server, `${uri}/outbox`);
    const profile = await request(server, alice, "GET", `/api/v1/accounts/${alice.account.id}`);
    assert.equal(collection.totalItems, profile.statuses_count);
    assert.equal(items.length, 23);
    const [first, second] = items;
    assert.equal(first.type, "Announce");
    assert.equal(first.id, boost.uri);
    assert.equal(first.object, byCarol.uri);
    assert.equal(second.type, "Create");
    assert.equal(second.id, `${unlisted.uri}/activity`);
    assert.equal(second.object.id, unlisted.uri);
    const creates = items.slice(2).map((item) => item.object.id);
    assert.deepEqual(creates, posted.map((s) => s.uri).reverse());
    const contents = JSON.stringify(items);
    assert.doesNotMatch(contents, /Private|direct|Deleted/);
  });

  it("followers: the follower ids with totalItems, paged", async () => {
    const other = await createUserWithToken(server, "olive", ["read", "write", "follow"]);
    await request(server, other, "POST", `/api/v1/accounts/${alice.account.id}/follow`);
    await request(server, carol, "POST", `/api/v1/accounts/${alice.account.id}/follow`);
    const remote: Account[] = [];
    for (let i = 0; i < 21; i++) {
      const account = remoteAccountRecord(server, `fan${i}`, "fans.example", {
        uri: `https://fans.example/users/fan${i}`,
      });
      await server.wren.ctx.storage.accounts.put(account);
      await storeFollow(server, account, alice.account);
      remote.push(account);
    }
    const { collection, items } = await walk(server, `${uri}/followers`);
    assert.equal(collection.totalItems, 23);
    const expected = [
      `${server.url}/users/olive`,
      `${server.url}/users/carol`,
      ...remote.map((a) => a.uri),
    ];
    assert.deepEqual([...items].sort(), [...expected].sort());
    // Newest follow first.
    assert.equal(items[0], remote[20]?.uri);
  });

  it("following: the followed ids with totalItems", async () => {
    await request(server, alice, "POST", `/api/v1/accounts/${carol.account.id}/follow`);
    const { collection, items } = await walk(server, `${uri}/following`);
    assert.equal(collection.totalItems, 1);
    assert.deepEqual(items, [`${server.url}/users/carol`]);
  });

  it("featured: the pinned statuses as Notes, newest pin first", async () => {
    const one = await post(server, alice, { status: "Pinned first" });
    const two = await post(server, alice, { status: "Pinned second" });
    const hidden = await post(server, alice, { status: "Pinned private", visibility: "private" });
    await request(server, alice, "POST", `/api/v1/statuses/${two.id}/pin`);
    await request(server, alice, "POST", `/api/v1/statuses/${one.id}/pin`);
    await request(server, alice, "POST", `/api/v1/statuses/${hidden.id}/pin`);
    const featured = await apDocument(server, `${uri}/collections/featured`);
    assert.equal(featured.type, "OrderedCollection");
    assert.equal(featured.totalItems, 2);
    const notes = list(featured.orderedItems);
    assert.deepEqual(
      notes.map((n) => [n.type, n.id]),
      [
        ["Note", one.uri],
        ["Note", two.uri],
      ],
    );
    assert.match(notes[0].content, /Pinned first/);
  });

  it("featured tags: an empty collection", async () => {
    const tags = await apDocument(server, `${uri}/collections/tags`);
    assert.equal(tags.totalItems, 0);
    assert.deepEqual(list(tags.orderedItems), []);
  });

  it("answer 404 for unknown accounts and cursors that are not ours", async () => {
    for (const path of [
      "/users/nobody/outbox",
      "/users/nobody/followers",
      "/users/nobody/collections/featured",
      "/users/alice/outbox?cursor=bogus",
      "/users/alice/followers?cursor=-1",
    ]) {
      const res = await apGet(server, path);
      assert.equal(res.status, 404, path);
    }
  });

  describe("the instance actor", () => {
    let host: string;
    let id: string;

    before(() => {
      host = new URL(server.url).host;
      id = `${server.url}/users/${encodeURIComponent(host)}`;
    });

    it("is an Application named after the host, with keys and collections", async () => {
      const actor = await apDocument(server, id);
      assert.equal(actor.id, id);
      assert.equal(actor.type, "Application");
      assert.equal(actor.preferredUsername, host);
      assert.equal(actor.manuallyApprovesFollowers, true);
      assert.equal(actor.inbox, `${id}/inbox`);
      assert.equal(actor.endpoints.sharedInbox, `${server.url}/inbox`);
      assert.equal(actor.publicKey.id, `${id}#main-key`);
      assert.equal(actor.publicKey.owner, id);
      const alice = await apDocument(server, "/users/alice");
      assert.notEqual(actor.publicKey.publicKeyPem, alice.publicKey.publicKeyPem);
      const outbox = await apDocument(server, actor.outbox);
      assert.equal(outbox.totalItems, 0);
      const followers = await apDocument(server, actor.followers);
      assert.equal(followers.totalItems, 0);
    });

    it("is found by WebFinger as acct:<host>@<host>", async () => {
      const resource = `acct:${host}@${host}`;
      const res = await server.request(
        `/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
      );
      assert.equal(res.status, 200);
      const jrd: Json = await res.json();
      const self = list(jrd.links).find((l) => l.rel === "self");
      assert.equal(self.href, id);
    });
  });
});

describe("the instance actor's name", () => {
  let server: TestServer;

  before(async () => {
    // A host without a dot or a port is the one case where the name passes the username rule.
    server = await startTestServer({ WREN_PUBLIC_URL: "http://localhost" });
  });

  after(() => server.close());

  for (const [label, allowReserved] of [
    ["sign-up", false],
    ["wren account create", true],
  ] as const) {
    it(`is refused by ${label}`, async () => {
      for (const username of ["localhost", "LocalHost"]) {
        await assert.rejects(
          createLocalAccount(server.wren.ctx, {
            username,
            email: `${username}@mail.example`,
            password: TEST_PASSWORD,
            allowReserved,
          }),
          (error: Error) => /Username is reserved/.test(error.message),
        );
      }
      assert.equal(
        await server.wren.ctx.storage.accounts.findByUsername("localhost", null),
        undefined,
      );
    });
  }
});
