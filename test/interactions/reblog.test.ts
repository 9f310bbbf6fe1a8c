import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  act,
  actOk,
  assertFlags,
  block,
  type Cast,
  createCast,
  deleteStatus,
  makeStatus,
  view,
} from "./helpers.ts";

describe("POST /api/v1/statuses/:id/reblog and /unreblog", () => {
  let server: TestServer;
  let cast: Cast;
  let dave: TestUser;
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
    dave = await createUserWithToken(server, "dave");
  });
  after(() => server.close());

  it("boosts a public status: a new status wrapping the original, counted once", async () => {
    const { alice, bob, carol } = cast;
    const original = await makeStatus(server, alice);
    assertFlags(await view(server, bob, original.id), { reblogged: false });

    const boost = await actOk(server, bob, original.id, "reblog");
    assert.notEqual(boost.id, original.id);
    assert.equal(boost.account.id, bob.account.id);
    assert.equal(boost.visibility, "public");
    assert.equal(boost.content, "");
    assert.equal(boost.reblog.id, original.id);
    assert.equal(boost.reblog.account.id, alice.account.id);
    assert.equal(boost.reblog.reblogs_count, 1);
    assertFlags(boost.reblog, { reblogged: true });

    const seenByBob = await view(server, bob, original.id);
    assert.equal(seenByBob.reblogs_count, 1);
    assertFlags(seenByBob, { reblogged: true, favourited: false, bookmarked: false });
    const seenByCarol = await view(server, carol, original.id);
    assert.equal(seenByCarol.reblogs_count, 1);
    assertFlags(seenByCarol, { reblogged: false });
    assert.equal((await view(server, null, original.id)).reblogs_count, 1);
    // The boost itself is a status others can fetch.
    assert.equal((await view(server, carol, boost.id)).reblog.id, original.id);
  });

  it("is idempotent: boosting twice answers the first boost", async () => {
    const original = await makeStatus(server, cast.alice);
    const first = await actOk(server, cast.bob, original.id, "reblog");
    const second = await actOk(server, cast.bob, original.id, "reblog");
    assert.equal(second.id, first.id);
    assert.equal(second.reblog.reblogs_count, 1);
    assert.equal((await view(server, null, original.id)).reblogs_count, 1);
  });

  it("boosting a boost boosts the original", async () => {
    const original = await makeStatus(server, cast.alice);
    const bobs = await actOk(server, cast.bob, original.id, "reblog");
    const carols = await actOk(server, cast.carol, bobs.id, "reblog");
    assert.equal(carols.reblog.id, original.id);
    assert.equal(carols.reblog.reblogs_count, 2);
  });

  it("takes visibility public, unlisted or private and refuses anything else", async () => {
    const original = await makeStatus(server, cast.alice);
    const unlisted = await actOk(server, cast.carol, original.id, "reblog", {
      visibility: "unlisted",
    });
    assert.equal(unlisted.visibility, "unlisted");
    const other = await makeStatus(server, cast.alice);
    for (const visibility of ["direct", "everyone"]) {
      const res = await act(server, cast.carol, other.id, "reblog", { visibility });
      assert.equal(res.status, 422);
      assert.match(res.body.error, /visibility/);
    }
    assert.equal((await view(server, null, other.id)).reblogs_count, 0);
  });

  it("lets the author boost their own followers-only post, which stays private", async () => {
    const own = await makeStatus(server, cast.alice, "private");
    const boost = await actOk(server, cast.alice, own.id, "reblog", { visibility: "public" });
    assert.equal(boost.visibility, "private");
    assert.equal(boost.reblog.id, own.id);
  });

  it("refuses followers-only posts of others (403) and hides what the booster cannot see (404)", async () => {
    const { alice, bob, carol } = cast;
    const privatePost = await makeStatus(server, alice, "private");
    const refused = await act(server, bob, privatePost.id, "reblog");
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, "This action is not allowed");
    const hidden = await act(server, carol, privatePost.id, "reblog");
    assert.equal(hidden.status, 404);
    assert.equal(hidden.body.error, "Record not found");

    const direct = await makeStatus(server, alice, "direct", { text: "@dave hi" });
    assert.equal((await act(server, carol, direct.id, "reblog")).status, 404);
    assert.equal((await act(server, bob, direct.id, "reblog")).status, 404);
    assert.equal((await act(server, dave, direct.id, "reblog")).status, 403);

    assert.equal((await view(server, alice, privatePost.id)).reblogs_count, 0);
    assert.equal((await view(server, alice, direct.id)).reblogs_count, 0);
  });

  it("answers 404 for unknown, malformed and deleted statuses", async () => {
    assert.equal((await act(server, cast.bob, "999999999999", "reblog")).status, 404);
    const res = await server.request("/api/v1/statuses/abc/reblog", {
      method: "POST",
      token: cast.bob.token,
    });
    assert.equal(res.status, 404);
    const gone = await makeStatus(server, cast.alice);
    await deleteStatus(server, cast.alice, gone.id);
    assert.equal((await act(server, cast.bob, gone.id, "reblog")).status, 404);
    assert.equal((await act(server, cast.bob, gone.id, "unreblog")).status, 404);
  });

  it("follows blocks: blocked by the author is 404, blocking the author is 403", async () => {
    const erin = await createUserWithToken(server, "erin");
    const frank = await createUserWithToken(server, "frank");
    const post = await makeStatus(server, erin);
    await block(server, erin, frank);
    assert.equal((await act(server, frank, post.id, "reblog")).status, 404);
    await block(server, dave, erin);
    const res = await act(server, dave, post.id, "reblog");
    assert.equal(res.status, 403);
    assert.equal(res.body.error, "This action is not allowed");
  });

  it("needs a user token with write:statuses", async () => {
    const post = await makeStatus(server, cast.alice);
    const path = `/api/v1/statuses/${post.id}/reblog`;
    const anonymous = await server.request(path, { method: "POST" });
    assert.equal(anonymous.status, 401);
    const readOnly = await createUserWithToken(server, "reader", ["read", "write:favourites"]);
    const forbidden = await act(server, readOnly, post.id, "reblog");
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error, "This action is outside the authorized scopes");
    const granular = await createUserWithToken(server, "granular", ["write:statuses"]);
    assert.equal((await act(server, granular, post.id, "reblog")).status, 200);
    const { token } = await createAppToken(server, ["write"]);
    assert.equal((await act(server, token, post.id, "reblog")).status, 422);
    assert.equal((await view(server, null, post.id)).reblogs_count, 1);
  });

  it("unreblog removes the boost (kept on disk, flagged deleted) and answers the original", async () => {
    const { alice, bob, carol } = cast;
    const original = await makeStatus(server, alice);
    const boost = await actOk(server, bob, original.id, "reblog");
    await actOk(server, carol, original.id, "reblog");

    const undone = await actOk(server, bob, original.id, "unreblog");
    assert.equal(undone.id, original.id);
    assert.equal(undone.reblog, null);
    assert.equal(undone.reblogs_count, 1);
    assertFlags(undone, { reblogged: false });
    assertFlags(await view(server, carol, original.id), { reblogged: true });

    const record = await server.wren.ctx.storage.statuses.get(boost.id);
    assert.equal(record?.deleted, true);
    const res = await server.request(`/api/v1/statuses/${boost.id}`, { token: bob.token });
    assert.equal(res.status, 404);

    // Boosting again makes a new boost.
    const again = await actOk(server, bob, original.id, "reblog");
    assert.notEqual(again.id, boost.id);
    assert.equal(again.reblog.reblogs_count, 2);
  });

  it("unreblog of a status never boosted answers it unchanged; invisible ones are 404", async () => {
    const original = await makeStatus(server, cast.alice);
    await actOk(server, cast.carol, original.id, "reblog");
    const res = await actOk(server, cast.bob, original.id, "unreblog");
    assert.equal(res.id, original.id);
    assert.equal(res.reblogs_count, 1);
    assertFlags(res, { reblogged: false });

    const privatePost = await makeStatus(server, cast.alice, "private");
    assert.equal((await act(server, cast.carol, privatePost.id, "unreblog")).status, 404);
    assert.equal((await act(server, cast.carol, "999999999999", "unreblog")).status, 404);
    assert.equal((await act(server, null, original.id, "unreblog")).status, 401);
  });

  it("keeps boosts, counters and flags across a restart", async () => {
    const original = await makeStatus(server, cast.alice);
    const boost = await actOk(server, cast.bob, original.id, "reblog");
    const undone = await makeStatus(server, cast.alice);
    await actOk(server, cast.bob, undone.id, "reblog");
    await actOk(server, cast.bob, undone.id, "unreblog");
    await server.restart();

    const bobView = await view(server, cast.bob, original.id);
    assert.equal(bobView.reblogs_count, 1);
    assertFlags(bobView, { reblogged: true });
    assertFlags(await view(server, cast.carol, original.id), { reblogged: false });
    assert.equal((await view(server, null, boost.id)).reblog.id, original.id);
    const undoneView = await view(server, cast.bob, undone.id);
    assert.equal(undoneView.reblogs_count, 0);
    assertFlags(undoneView, { reblogged: false });
    // Still idempotent after a restart: the index of boosts was rebuilt.
    assert.equal((await actOk(server, cast.bob, original.id, "reblog")).id, boost.id);
  });
});
