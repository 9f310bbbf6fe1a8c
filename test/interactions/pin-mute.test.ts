import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  act,
  actOk,
  assertFlags,
  type Cast,
  createCast,
  deleteStatus,
  type Json,
  makeStatus,
  view,
} from "./helpers.ts";

describe("POST /api/v1/statuses/:id/pin and /unpin", () => {
  let server: TestServer;
  let cast: Cast;
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
  });
  after(() => server.close());

  it("pins and unpins one's own statuses; `pinned` is the author's flag", async () => {
    const { alice, bob } = cast;
    const post = await makeStatus(server, alice);
    assertFlags(await view(server, alice, post.id), { pinned: false });
    const pinned = await actOk(server, alice, post.id, "pin");
    assert.equal(pinned.id, post.id);
    assert.equal(pinned.reblog, null);
    assertFlags(pinned, { pinned: true });
    assertFlags(await actOk(server, alice, post.id, "pin"), { pinned: true });
    assertFlags(await view(server, alice, post.id), { pinned: true });
    assert.notEqual((await view(server, bob, post.id)).pinned, true);

    assertFlags(await actOk(server, alice, post.id, "unpin"), { pinned: false });
    assertFlags(await actOk(server, alice, post.id, "unpin"), { pinned: false });
    assertFlags(await view(server, alice, post.id), { pinned: false });
  });

  it("refuses others' posts, direct posts and boosts with Mastodon's messages", async () => {
    const { alice, bob } = cast;
    const post = await makeStatus(server, alice);
    const others = await act(server, bob, post.id, "pin");
    assert.equal(others.status, 422);
    assert.equal(others.body.error, "Validation failed: Someone else's post cannot be pinned");

    const direct = await makeStatus(server, alice, "direct");
    const res = await act(server, alice, direct.id, "pin");
    assert.equal(res.status, 422);
    assert.equal(
      res.body.error,
      "Validation failed: Posts that are only visible to mentioned users cannot be pinned",
    );

    const boost = await actOk(server, bob, post.id, "reblog");
    const boostPin = await act(server, bob, boost.id, "pin");
    assert.equal(boostPin.status, 422);
    assert.equal(boostPin.body.error, "Validation failed: A boost cannot be pinned");

    const privatePost = await makeStatus(server, alice, "private");
    assertFlags(await actOk(server, alice, privatePost.id, "pin"), { pinned: true });
    await actOk(server, alice, privatePost.id, "unpin");

    assert.equal((await act(server, cast.carol, privatePost.id, "pin")).status, 404);
    assert.equal((await act(server, alice, "999999999999", "pin")).status, 404);
  });

  it("allows five pins; the sixth is refused until one is unpinned or deleted", async () => {
    const ivy = await createUserWithToken(server, "ivy");
    const posts: Json[] = [];
    for (let i = 0; i < 7; i++) posts.push(await makeStatus(server, ivy));
    for (const post of posts.slice(0, 5)) await actOk(server, ivy, post.id, "pin");
    const sixth = posts[5]?.id as string;
    const refused = await act(server, ivy, sixth, "pin");
    assert.equal(refused.status, 422);
    assert.equal(
      refused.body.error,
      "Validation failed: You have already pinned the maximum number of posts",
    );
    assertFlags(await view(server, ivy, sixth), { pinned: false });
    // Pinning an already pinned one again is still fine.
    assertFlags(await actOk(server, ivy, posts[0]?.id as string, "pin"), { pinned: true });

    await actOk(server, ivy, posts[0]?.id as string, "unpin");
    await actOk(server, ivy, sixth, "pin");
    const seventh = posts[6]?.id as string;
    assert.equal((await act(server, ivy, seventh, "pin")).status, 422);
    // A deleted pinned status no longer takes a place.
    await deleteStatus(server, ivy, posts[1]?.id as string);
    assertFlags(await actOk(server, ivy, seventh, "pin"), { pinned: true });
  });

  it("needs write:accounts and keeps pins across a restart", async () => {
    const post = await makeStatus(server, cast.alice);
    const noAccounts = await createUserWithToken(server, "jon", ["read", "write:statuses"]);
    const mine = await makeStatus(server, noAccounts);
    assert.equal((await act(server, noAccounts, mine.id, "pin")).status, 403);
    assert.equal((await act(server, null, mine.id, "pin")).status, 401);
    await actOk(server, cast.alice, post.id, "pin");
    await server.restart();
    assertFlags(await view(server, cast.alice, post.id), { pinned: true });
    assertFlags(await view(server, noAccounts, mine.id), { pinned: false });
  });
});

describe("POST /api/v1/statuses/:id/mute and /unmute", () => {
  let server: TestServer;
  let cast: Cast;
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
  });
  after(() => server.close());

  it("mutes the whole conversation for the one who muted it", async () => {
    const { alice, bob, carol } = cast;
    const root = await makeStatus(server, alice);
    const reply = await makeStatus(server, carol, "public", { inReplyToId: root.id });
    const elsewhere = await makeStatus(server, alice);

    assertFlags(await actOk(server, bob, root.id, "mute"), { muted: true });
    assertFlags(await actOk(server, bob, root.id, "mute"), { muted: true });
    assertFlags(await view(server, bob, reply.id), { muted: true });
    assertFlags(await view(server, bob, elsewhere.id), { muted: false });
    assertFlags(await view(server, carol, root.id), { muted: false });

    // Unmuting through another status of the thread unmutes the thread.
    assertFlags(await actOk(server, bob, reply.id, "unmute"), { muted: false });
    assertFlags(await view(server, bob, root.id), { muted: false });
    assertFlags(await actOk(server, bob, root.id, "unmute"), { muted: false });
  });

  it("answers 404 for what the viewer cannot see and needs write:mutes", async () => {
    const privatePost = await makeStatus(server, cast.alice, "private");
    assert.equal((await act(server, cast.carol, privatePost.id, "mute")).status, 404);
    assert.equal((await act(server, cast.carol, "999999999999", "unmute")).status, 404);
    const noMutes = await createUserWithToken(server, "kim", ["read", "write:statuses"]);
    assert.equal((await act(server, noMutes, privatePost.id, "mute")).status, 403);
    const follow = await createUserWithToken(server, "lee", ["follow"]);
    // The legacy `follow` scope covers write:mutes; the post itself is hidden from lee.
    assert.equal((await act(server, follow, privatePost.id, "mute")).status, 404);
  });

  it("keeps conversation mutes across a restart", async () => {
    const post = await makeStatus(server, cast.alice, "private");
    await actOk(server, cast.bob, post.id, "mute");
    await server.restart();
    assertFlags(await view(server, cast.bob, post.id), { muted: true });
    assertFlags(await view(server, cast.alice, post.id), { muted: false });
  });
});
