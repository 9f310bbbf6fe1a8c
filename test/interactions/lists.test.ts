import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  accountAction,
  actOk,
  block,
  type Cast,
  createCast,
  deleteStatus,
  follow,
  getList,
  type Json,
  links,
  makeStatus,
  mute,
  walk,
} from "./helpers.ts";

async function users(server: TestServer, prefix: string, count: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let i = 0; i < count; i++) out.push(await createUserWithToken(server, `${prefix}${i}`));
  return out;
}

const ids = (items: Json[]) => items.map((item) => item.id as string);

describe("GET /api/v1/statuses/:id/reblogged_by and /favourited_by", () => {
  let server: TestServer;
  let cast: Cast;
  let fans: TestUser[];
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
    fans = await users(server, "fan", 5);
  });
  after(() => server.close());

  it("lists the boosters of public and unlisted boosts, newest first, page by page", async () => {
    const post = await makeStatus(server, cast.alice);
    for (const [i, fan] of fans.entries()) {
      const visibility = i === 1 ? "unlisted" : "public";
      await actOk(server, fan, post.id, "reblog", { visibility });
    }
    // A followers-only boost is not listed.
    await actOk(server, cast.carol, post.id, "reblog", { visibility: "private" });
    const expected = fans.map((f) => f.account.id).reverse();

    const path = `/api/v1/statuses/${post.id}/reblogged_by`;
    const { body } = await getList(server, null, path);
    assert.deepEqual(ids(body), expected);

    const { down, up } = await walk(server, null, `${path}?limit=2`);
    assert.deepEqual(down, expected);
    assert.deepEqual(up, expected);

    // Undoing a boost takes the booster off the list.
    await actOk(server, fans[0] as TestUser, post.id, "unreblog");
    const after = await getList(server, cast.bob, path);
    assert.deepEqual(ids(after.body), expected.slice(0, -1));
  });

  it("lists the favouriters, newest favourite first, paged by favourite id", async () => {
    const post = await makeStatus(server, cast.alice);
    const order = [fans[3], fans[0], fans[4], fans[1], fans[2]] as TestUser[];
    for (const fan of order) await actOk(server, fan, post.id, "favourite");
    const expected = order.map((f) => f.account.id).reverse();

    const path = `/api/v1/statuses/${post.id}/favourited_by`;
    const first = await getList(server, cast.bob, `${path}?limit=2`);
    assert.deepEqual(ids(first.body), expected.slice(0, 2));
    const next = new URL(links(first.res).next as string, server.url);
    const maxId = next.searchParams.get("max_id") as string;
    // The cursor is the favourite's id, not an account's.
    assert.ok(!expected.includes(maxId));
    assert.equal(next.searchParams.get("limit"), "2");

    const { down, up } = await walk(server, cast.bob, `${path}?limit=2`);
    assert.deepEqual(down, expected);
    assert.deepEqual(up, expected);
    const { body } = await getList(server, null, `${path}?since_id=${maxId}`);
    assert.deepEqual(ids(body), expected.slice(0, 1));
  });

  it("leaves out accounts the viewer blocks, mutes or is blocked by", async () => {
    const post = await makeStatus(server, cast.alice);
    for (const fan of fans) {
      await actOk(server, fan, post.id, "favourite");
      await actOk(server, fan, post.id, "reblog");
    }
    const viewer = await createUserWithToken(server, "picky");
    await block(server, viewer, fans[0] as TestUser);
    await mute(server, viewer, fans[1] as TestUser);
    await block(server, fans[2] as TestUser, viewer);
    const expected = fans
      .slice(3)
      .map((f) => f.account.id)
      .reverse();
    for (const list of ["reblogged_by", "favourited_by"]) {
      const path = `/api/v1/statuses/${post.id}/${list}`;
      assert.deepEqual(ids((await getList(server, viewer, path)).body), expected);
      assert.equal((await getList(server, null, path)).body.length, 5);
    }
  });

  it("answers 404 for what the viewer cannot see; a token needs read:accounts", async () => {
    const privatePost = await makeStatus(server, cast.alice, "private");
    await actOk(server, cast.bob, privatePost.id, "favourite");
    for (const list of ["reblogged_by", "favourited_by"]) {
      const path = `/api/v1/statuses/${privatePost.id}/${list}`;
      assert.equal((await server.request(path)).status, 404);
      assert.equal((await server.request(path, { token: cast.carol.token })).status, 404);
      const missing = await server.request(`/api/v1/statuses/999999999999/${list}`);
      assert.equal(missing.status, 404);
      assert.deepEqual(await missing.json(), { error: "Record not found" });
      const { body } = await getList(server, cast.bob, path);
      assert.equal(body.length, list === "favourited_by" ? 1 : 0);

      const statusesOnly = await createUserWithToken(server, `so${list}`, ["read:statuses"]);
      const res = await server.request(path, { token: statusesOnly.token });
      assert.equal(res.status, 403);
      const bad = await server.request(path, { token: "not-a-token" });
      assert.equal(bad.status, 401);
      const limited = await server.request(`${path}?limit=abc`, { token: cast.bob.token });
      assert.equal(limited.status, 422);
    }
  });
});

describe("GET /api/v1/favourites and /api/v1/bookmarks", () => {
  let server: TestServer;
  let cast: Cast;
  before(async () => {
    server = await startTestServer();
    cast = await createCast(server);
  });
  after(() => server.close());

  for (const [list, action, scope] of [
    ["favourites", "favourite", "read:favourites"],
    ["bookmarks", "bookmark", "read:bookmarks"],
  ] as const) {
    describe(`/api/v1/${list}`, () => {
      it("lists the viewer's statuses newest edge first; Link walks every one once", async () => {
        const { alice, bob } = cast;
        const posts: Json[] = [];
        for (let i = 0; i < 7; i++) posts.push(await makeStatus(server, alice));
        // Acted on in an order unlike the posts' own, so edge order is what is tested.
        const order = [3, 0, 6, 1, 5, 2, 4].map((i) => posts[i]?.id as string);
        for (const id of order) await actOk(server, bob, id, action);
        const expected = [...order].reverse();

        const { res, body } = await getList(server, bob, `/api/v1/${list}`);
        assert.deepEqual(ids(body), expected);
        const flag = action === "favourite" ? "favourited" : "bookmarked";
        for (const item of body) assert.equal(item[flag], true);
        assert.ok(links(res).next?.includes("max_id="));
        assert.ok(links(res).prev?.includes("min_id="));

        const { down, up } = await walk(server, bob, `/api/v1/${list}?limit=3`);
        assert.deepEqual(down, expected);
        assert.deepEqual(up, expected);

        // Someone else's list is their own.
        assert.deepEqual((await getList(server, cast.carol, `/api/v1/${list}`)).body, []);
        const empty = await getList(server, cast.carol, `/api/v1/${list}`);
        assert.equal(empty.res.headers.get("link"), null);
      });

      it("hides statuses deleted since or no longer visible, and undone ones", async () => {
        const dana = await createUserWithToken(server, `dana${list}`);
        const reader = await createUserWithToken(server, `reader${list}`);
        await follow(server, reader, dana);
        const kept = await makeStatus(server, dana);
        const deleted = await makeStatus(server, dana);
        const undone = await makeStatus(server, dana);
        const followersOnly = await makeStatus(server, dana, "private");
        for (const post of [kept, deleted, undone, followersOnly]) {
          await actOk(server, reader, post.id, action);
        }
        await actOk(server, reader, undone.id, `un${action}`);
        await deleteStatus(server, dana, deleted.id);
        assert.deepEqual(ids((await getList(server, reader, `/api/v1/${list}`)).body), [
          followersOnly.id,
          kept.id,
        ]);
        // No longer following: the followers-only post is out of sight.
        await accountAction(server, reader, dana, "unfollow");
        const { body } = await getList(server, reader, `/api/v1/${list}`);
        assert.deepEqual(ids(body), [kept.id]);
        // A page emptied by hiding still links on, so a walk reaches older items.
        const { down } = await walk(server, reader, `/api/v1/${list}?limit=1`);
        assert.deepEqual(down, [kept.id]);
      });

      it(`needs a user token with ${scope}`, async () => {
        const path = `/api/v1/${list}`;
        assert.equal((await server.request(path)).status, 401);
        const other = scope === "read:favourites" ? "read:bookmarks" : "read:favourites";
        const wrong = await createUserWithToken(server, `wrong${list}`, [other]);
        const res = await server.request(path, { token: wrong.token });
        assert.equal(res.status, 403);
        const right = await createUserWithToken(server, `right${list}`, [scope]);
        assert.equal((await server.request(path, { token: right.token })).status, 200);
        const { token } = await createAppToken(server, ["read"]);
        assert.equal((await server.request(path, { token })).status, 422);
        const badId = await server.request(`${path}?max_id=abc`, { token: right.token });
        assert.equal(badId.status, 422);
      });

      it("keeps the list across a restart", async () => {
        const post = await makeStatus(server, cast.alice);
        await actOk(server, cast.carol, post.id, action);
        await server.restart();
        const { body } = await getList(server, cast.carol, `/api/v1/${list}`);
        assert.equal(body[0]?.id, post.id);
      });
    });
  }
});
