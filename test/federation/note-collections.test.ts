// The collections a local Note names, as Mastodon publishes them: `replies` (its first page
// embedded in the Note, the author's own replies first, then the others', public and unlisted
// ones only, paged with `next`), `likes` and `shares` (totalItems), each dereferenceable at its
// id over real HTTP, answering exactly when the Note does.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, post } from "../statuses/helpers.ts";
import { apDocument, apGet, type Json } from "./helpers.ts";
import { rememberPeerAccount, signedGet, storeFollow } from "./signed-get.ts";

const pathOf = (uri: string) => new URL(uri).pathname;

const list = (value: unknown): unknown[] => (value === undefined ? [] : [value].flat());

describe("replies, likes and shares of a Note", () => {
  let server: TestServer;
  let peer: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  before(async () => {
    const env = { WREN_ALLOW_PRIVATE_ADDRESSES: "true" };
    [server, peer] = await Promise.all([startTestServer(env), startTestServer(env)]);
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
    bob = await createUserWithToken(server, "bob", ["read", "write"]);
    carol = await createUserWithToken(server, "carol", ["read", "write"]);
  });

  after(async () => {
    await Promise.all([server.close(), peer.close()]);
  });

  describe("a thread with replies of every visibility", () => {
    let parent: Json;
    let selfReply: Json;
    let publicReply: Json;
    let unlistedReply: Json;
    let hidden: Json[];

    before(async () => {
      parent = await post(server, alice, { status: "Start of a thread" });
      const reply = (user: TestUser, status: string, visibility: string) =>
        post(server, user, { status, visibility, in_reply_to_id: parent.id });
      publicReply = await reply(bob, "Public answer", "public");
      selfReply = await reply(alice, "Thread, part 2", "public");
      unlistedReply = await reply(carol, "Quiet answer", "unlisted");
      hidden = [
        await reply(carol, "For my followers", "private"),
        await reply(bob, "@alice just us", "direct"),
      ];
    });

    it("embeds the first page in the Note: the author's own replies, then a next page", async () => {
      const note = await apDocument(server, pathOf(parent.uri));
      assert.equal(note.replies.id, `${parent.uri}/replies`);
      assert.equal(note.replies.type, "Collection");
      const first = note.replies.first;
      assert.equal(first.type, "CollectionPage");
      assert.equal(first.partOf, `${parent.uri}/replies`);
      assert.deepEqual(list(first.items), [selfReply.uri]);
      assert.equal(first.next, `${parent.uri}/replies?cursor=others`);
      assert.deepEqual(note.likes, {
        id: `${parent.uri}/likes`,
        type: "Collection",
        totalItems: 0,
      });
      assert.deepEqual(note.shares, {
        id: `${parent.uri}/shares`,
        type: "Collection",
        totalItems: 0,
      });
    });

    it("serves the replies collection at its id, public and unlisted replies only", async () => {
      const collection = await apDocument(server, pathOf(`${parent.uri}/replies`));
      assert.equal(collection.id, `${parent.uri}/replies`);
      assert.equal(collection.type, "Collection");
      assert.equal(collection.first, `${parent.uri}/replies?cursor=first`);

      const first = await apDocument(server, `${pathOf(parent.uri)}/replies?cursor=first`);
      assert.equal(first.type, "CollectionPage");
      assert.equal(first.partOf, `${parent.uri}/replies`);
      assert.deepEqual(list(first.items), [selfReply.uri]);
      assert.equal(first.next, `${parent.uri}/replies?cursor=others`);

      const others = await apDocument(server, `${pathOf(parent.uri)}/replies?cursor=others`);
      assert.deepEqual(list(others.items), [publicReply.uri, unlistedReply.uri]);
      assert.equal(others.next, undefined);
      const listed = JSON.stringify([first, others]);
      for (const status of hidden) assert.ok(!listed.includes(status.uri), status.visibility);
    });

    it("counts favourites and boosts in likes and shares, in the Note and at their ids", async () => {
      await call(server, "POST", `/api/v1/statuses/${parent.id}/favourite`, { token: bob.token });
      await call(server, "POST", `/api/v1/statuses/${parent.id}/favourite`, { token: carol.token });
      await call(server, "POST", `/api/v1/statuses/${parent.id}/reblog`, { token: carol.token });

      const note = await apDocument(server, pathOf(parent.uri));
      assert.equal(note.likes.totalItems, 2);
      assert.equal(note.shares.totalItems, 1);
      const likes = await apDocument(server, `${pathOf(parent.uri)}/likes`);
      assert.equal(likes.id, `${parent.uri}/likes`);
      assert.equal(likes.totalItems, 2);
      const shares = await apDocument(server, `${pathOf(parent.uri)}/shares`);
      assert.equal(shares.id, `${parent.uri}/shares`);
      assert.equal(shares.totalItems, 1);

      await call(server, "POST", `/api/v1/statuses/${parent.id}/unfavourite`, { token: bob.token });
      assert.equal((await apDocument(server, `${pathOf(parent.uri)}/likes`)).totalItems, 1);
    });

    it("answers a browser with the web, never the collection's JSON", async () => {
      const res = await apGet(server, `${pathOf(parent.uri)}/replies`, "text/html");
      assert.doesNotMatch(res.type, /activity\+json|ld\+json/);
    });

    it("answers 404 for a cursor that is not one of ours", async () => {
      for (const cursor of ["bogus", "others.x", "self.", "1"]) {
        const res = await apGet(server, `${pathOf(parent.uri)}/replies?cursor=${cursor}`);
        assert.equal(res.status, 404, cursor);
      }
    });
  });

  it("pages through many replies with next", async () => {
    const parent = await post(server, alice, { status: "Ask me anything" });
    const replies: string[] = [];
    for (let i = 0; i < 23; i++) {
      const reply = await post(server, bob, { status: `Answer ${i}`, in_reply_to_id: parent.id });
      replies.push(reply.uri);
    }
    const note = await apDocument(server, pathOf(parent.uri));
    assert.deepEqual(list(note.replies.first.items), []);
    const seen: string[] = [];
    let next: string | undefined = note.replies.first.next;
    let pages = 0;
    while (next !== undefined) {
      const page = await apDocument(server, pathOf(next) + new URL(next).search);
      assert.equal(page.partOf, `${parent.uri}/replies`);
      seen.push(...(list(page.items) as string[]));
      next = page.next;
      pages++;
    }
    assert.equal(pages, 2);
    assert.deepEqual(seen, replies);
  });

  it("answers 410 for the collections of a deleted public post", async () => {
    const doomed = await post(server, alice, { status: "Soon gone" });
    await call(server, "DELETE", `/api/v1/statuses/${doomed.id}`, { token: alice.token });
    for (const name of ["replies", "likes", "shares"]) {
      const res = await apGet(server, `${pathOf(doomed.uri)}/${name}`);
      assert.equal(res.status, 410, name);
      assert.equal(res.body.type, "Tombstone");
      assert.equal(res.body.id, `${doomed.uri}/${name}`);
    }
  });

  it("serves a followers-only post's collections as its Note: to signed followers only", async () => {
    await createUserWithToken(peer, "dan", ["read"]);
    await createUserWithToken(peer, "eve", ["read"]);
    const dan = await rememberPeerAccount(server, peer, "dan");
    await rememberPeerAccount(server, peer, "eve");
    await storeFollow(server, dan, alice.account);
    const secret = await post(server, alice, { status: "Followers only", visibility: "private" });
    await post(server, alice, {
      status: "More of it",
      visibility: "public",
      in_reply_to_id: secret.id,
    });
    for (const name of ["replies", "likes", "shares"]) {
      const path = `${pathOf(secret.uri)}/${name}`;
      assert.equal((await apGet(server, path)).status, 404, `anonymous ${name}`);
      assert.equal((await signedGet(peer, "eve", `${server.url}${path}`)).status, 404, name);
      const res = await signedGet(peer, "dan", `${server.url}${path}`);
      assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
    }
  });

  it("does not list a boost as a post with collections", async () => {
    const original = await post(server, bob, { status: "Boost me" });
    const boost = await call(server, "POST", `/api/v1/statuses/${original.id}/reblog`, {
      token: alice.token,
    });
    const boostPath = `/users/alice/statuses/${boost.id}`;
    assert.equal((await apGet(server, `${boostPath}/replies`)).status, 404);
  });
});
