import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  act,
  actOk,
  assertFlags,
  block,
  type Cast,
  createCast,
  makeStatus,
  view,
} from "./helpers.ts";

describe("POST /api/v1/statuses/:id/favourite and /unfavourite", () => {
  let server: TestServer;
  let cast: Cast;
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
  });
  after(() => server.close());

  it("favourites once, counts once, flags only for the one who favourited", async () => {
    const { alice, bob, carol } = cast;
    const post = await makeStatus(server, alice);
    assertFlags(await view(server, bob, post.id), { favourited: false });

    const first = await actOk(server, bob, post.id, "favourite");
    assert.equal(first.id, post.id);
    assert.equal(first.favourites_count, 1);
    assertFlags(first, { favourited: true, reblogged: false, bookmarked: false, muted: false });
    const second = await actOk(server, bob, post.id, "favourite");
    assert.equal(second.favourites_count, 1);
    assertFlags(second, { favourited: true });

    const carolView = await view(server, carol, post.id);
    assert.equal(carolView.favourites_count, 1);
    assertFlags(carolView, { favourited: false });
    assertFlags(await view(server, alice, post.id), { favourited: false });
    assert.equal((await view(server, null, post.id)).favourites_count, 1);

    const both = await actOk(server, carol, post.id, "favourite");
    assert.equal(both.favourites_count, 2);

    const undone = await actOk(server, bob, post.id, "unfavourite");
    assert.equal(undone.favourites_count, 1);
    assertFlags(undone, { favourited: false });
    assertFlags(await view(server, carol, post.id), { favourited: true });
  });

  it("unfavourite of a status never favourited answers it unchanged", async () => {
    const post = await makeStatus(server, cast.alice);
    await actOk(server, cast.carol, post.id, "favourite");
    const res = await actOk(server, cast.bob, post.id, "unfavourite");
    assert.equal(res.id, post.id);
    assert.equal(res.favourites_count, 1);
    assertFlags(res, { favourited: false });
  });

  it("favouriting a boost favourites the original", async () => {
    const post = await makeStatus(server, cast.alice);
    const boost = await actOk(server, cast.bob, post.id, "reblog");
    const res = await actOk(server, cast.carol, boost.id, "favourite");
    assert.equal(res.id, boost.id);
    assert.equal(res.reblog.favourites_count, 1);
    assertFlags(res.reblog, { favourited: true });
    assertFlags(await view(server, cast.carol, post.id), { favourited: true });
    // Undoing through the boost undoes it on the original too.
    await actOk(server, cast.carol, boost.id, "unfavourite");
    const after = await view(server, cast.carol, post.id);
    assert.equal(after.favourites_count, 0);
    assertFlags(after, { favourited: false });
  });

  it("respects visibility: followers may favourite private posts, others get 404", async () => {
    const { alice, bob, carol } = cast;
    const privatePost = await makeStatus(server, alice, "private");
    const res = await actOk(server, bob, privatePost.id, "favourite");
    assert.equal(res.favourites_count, 1);
    assert.equal((await act(server, carol, privatePost.id, "favourite")).status, 404);
    assert.equal((await act(server, carol, privatePost.id, "unfavourite")).status, 404);
    const direct = await makeStatus(server, alice, "direct");
    const hidden = await act(server, bob, direct.id, "favourite");
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.error, "Record not found");
    assert.equal((await act(server, bob, "999999999999", "favourite")).status, 404);
    assert.equal((await view(server, alice, privatePost.id)).favourites_count, 1);
    assert.equal((await view(server, alice, direct.id)).favourites_count, 0);
  });

  it("refuses favouriting an author one blocks (403) and hides blockers' posts (404)", async () => {
    const gina: TestUser = await createUserWithToken(server, "gina");
    const hal: TestUser = await createUserWithToken(server, "hal");
    const post = await makeStatus(server, gina);
    await block(server, hal, gina);
    const refused = await act(server, hal, post.id, "favourite");
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "This action is not allowed");
    await block(server, gina, cast.carol);
    assert.equal((await act(server, cast.carol, post.id, "favourite")).status, 404);
    assert.equal((await view(server, null, post.id)).favourites_count, 0);
  });

  it("needs write:favourites", async () => {
    const post = await makeStatus(server, cast.alice);
    const wrong = await createUserWithToken(server, "nofav", ["read", "write:statuses"]);
    const res = await act(server, wrong, post.id, "favourite");
    assert.equal(res.status, 403);
    assert.equal((await act(server, wrong, post.id, "unfavourite")).status, 403);
    assert.equal((await act(server, null, post.id, "favourite")).status, 401);
    const right = await createUserWithToken(server, "fav", ["write:favourites"]);
    assert.equal((await act(server, right, post.id, "favourite")).status, 200);
  });
});

describe("POST /api/v1/statuses/:id/bookmark and /unbookmark", () => {
  let server: TestServer;
  let cast: Cast;
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
  });
  after(() => server.close());

  it("bookmarks privately and idempotently", async () => {
    const { alice, bob, carol } = cast;
    const post = await makeStatus(server, alice);
    const first = await actOk(server, bob, post.id, "bookmark");
    assertFlags(first, { bookmarked: true, favourited: false });
    assertFlags(await actOk(server, bob, post.id, "bookmark"), { bookmarked: true });
    assertFlags(await view(server, carol, post.id), { bookmarked: false });
    assertFlags(await view(server, alice, post.id), { bookmarked: false });
    // A bookmark is private: nothing is counted.
    assert.equal((await view(server, null, post.id)).favourites_count, 0);

    assertFlags(await actOk(server, bob, post.id, "unbookmark"), { bookmarked: false });
    assertFlags(await actOk(server, bob, post.id, "unbookmark"), { bookmarked: false });
    assertFlags(await view(server, bob, post.id), { bookmarked: false });
  });

  it("bookmarking a boost bookmarks the original", async () => {
    const post = await makeStatus(server, cast.alice);
    const boost = await actOk(server, cast.carol, post.id, "reblog");
    const res = await actOk(server, cast.bob, boost.id, "bookmark");
    assertFlags(res.reblog, { bookmarked: true });
    assertFlags(await view(server, cast.bob, post.id), { bookmarked: true });
  });

  it("hides what the viewer cannot see and needs write:bookmarks", async () => {
    const privatePost = await makeStatus(server, cast.alice, "private");
    assert.equal((await act(server, cast.carol, privatePost.id, "bookmark")).status, 404);
    assert.equal((await act(server, cast.carol, privatePost.id, "unbookmark")).status, 404);
    assert.equal((await act(server, cast.carol, "999999999999", "bookmark")).status, 404);
    assertFlags(await actOk(server, cast.bob, privatePost.id, "bookmark"), { bookmarked: true });
    const wrong = await createUserWithToken(server, "nobm", ["read", "write:favourites"]);
    assert.equal((await act(server, wrong, privatePost.id, "bookmark")).status, 403);
    assert.equal((await act(server, null, privatePost.id, "bookmark")).status, 401);
    const right = await createUserWithToken(server, "bm", ["write:bookmarks"]);
    assert.equal((await act(server, right, privatePost.id, "bookmark")).status, 404);
  });

  it("keeps favourites and bookmarks across a restart", async () => {
    const { alice, bob, carol } = cast;
    const post = await makeStatus(server, alice);
    await actOk(server, bob, post.id, "favourite");
    await actOk(server, bob, post.id, "bookmark");
    await actOk(server, carol, post.id, "favourite");
    await actOk(server, carol, post.id, "unfavourite");
    await server.restart();
    const bobView = await view(server, bob, post.id);
    assert.equal(bobView.favourites_count, 1);
    assertFlags(bobView, { favourited: true, bookmarked: true });
    assertFlags(await view(server, carol, post.id), { favourited: false, bookmarked: false });
    assert.equal((await actOk(server, bob, post.id, "favourite")).favourites_count, 1);
  });
});
