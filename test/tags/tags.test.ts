// GET /api/v1/tags/:name, following and unfollowing a tag, GET /api/v1/followed_tags, and the
// Tag entity's week of history counted from real statuses.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { idFromTime } from "../../src/domain/ids.ts";
import { makeStatus } from "../../src/storage/contract/fixtures.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, ok, post } from "./helpers.ts";

const DAY = 86_400_000;

describe("hashtags: show, follow, followed_tags", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  it("shows a never-used tag with seven empty days, as typed, without `following` anonymously", async () => {
    const tag = await ok(server, "GET", "/api/v1/tags/NeverSeen", null);
    assert.equal(tag.name, "NeverSeen");
    assert.equal(tag.url, `${server.wren.ctx.settings.publicUrl}/tags/neverseen`);
    assert.equal(tag.history.length, 7);
    assert.ok(tag.history.every((d: { uses: string }) => d.uses === "0"));
    const today = Math.floor(Date.now() / DAY) * 86_400;
    assert.equal(tag.history[0].day, String(today));
    assert.equal(tag.history[6].day, String(today - 6 * 86_400));
    assert.equal("following" in tag, false);
    assert.equal("featuring" in tag, false);
    // The same tag in any case has the same id.
    const lower = await ok(server, "GET", "/api/v1/tags/neverseen", alice);
    assert.equal(lower.id, tag.id);
    assert.equal(lower.following, false);
    assert.equal(lower.featuring, false);
  });

  it("takes names in any script, percent-encoded in the path", async () => {
    const tag = await ok(
      server,
      "POST",
      `/api/v1/tags/${encodeURIComponent("Café")}/follow`,
      alice,
    );
    assert.equal(tag.name, "Café");
    assert.equal(tag.following, true);
    const shown = await ok(server, "GET", `/api/v1/tags/${encodeURIComponent("café")}`, alice);
    assert.equal(shown.following, true);
    assert.equal(shown.id, tag.id);
    const jp = await ok(server, "GET", `/api/v1/tags/${encodeURIComponent("日本語")}`, null);
    assert.equal(jp.name, "日本語");
    await ok(server, "POST", `/api/v1/tags/${encodeURIComponent("café")}/unfollow`, alice);
  });

  it("answers 404 for a name that cannot be a hashtag", async () => {
    for (const bad of ["2024", "a-b", "%20", "x".repeat(101)]) {
      const res = await call(server, "GET", `/api/v1/tags/${bad}`, alice);
      assert.equal(res.status, 404, bad);
      assert.equal(res.body.error, "Record not found");
    }
    const follow = await call(server, "POST", "/api/v1/tags/2024/follow", alice);
    assert.equal(follow.status, 404);
  });

  it("counts public uses and distinct accounts per day, today first", async () => {
    await post(server, alice, "one #Counted");
    await post(server, alice, "two #counted");
    await post(server, bob, "three #COUNTED");
    await post(server, bob, "not counted: unlisted #counted", "unlisted");
    await post(server, bob, "not counted: private #counted", "private");
    // A status of two days ago, and one of eight days ago (out of the window).
    const { storage } = server.wren.ctx;
    const at = (daysAgo: number) => idFromTime(new Date(Date.now() - daysAgo * DAY));
    for (const [daysAgo, suffix] of [
      [2, 1n],
      [8, 2n],
    ] as const) {
      const id = (BigInt(at(daysAgo)) + suffix).toString();
      await storage.statuses.put(
        makeStatus({ id, accountId: alice.account.id, tags: ["counted"], visibility: "public" }),
      );
    }
    const tag = await ok(server, "GET", "/api/v1/tags/counted", null);
    assert.deepEqual(
      tag.history.map((d: { uses: string; accounts: string }) => [d.uses, d.accounts]),
      [
        ["3", "2"],
        ["0", "0"],
        ["1", "1"],
        ["0", "0"],
        ["0", "0"],
        ["0", "0"],
        ["0", "0"],
      ],
    );
  });

  it("follows and unfollows idempotently; `following` follows the state", async () => {
    const followed = await ok(server, "POST", "/api/v1/tags/Wren/follow", alice);
    assert.equal(followed.name, "Wren");
    assert.equal(followed.following, true);
    assert.equal((await ok(server, "POST", "/api/v1/tags/wren/follow", alice)).following, true);
    assert.equal((await ok(server, "GET", "/api/v1/tags/WREN", alice)).following, true);
    assert.equal((await ok(server, "GET", "/api/v1/tags/wren", bob)).following, false);
    const list = await ok(server, "GET", "/api/v1/followed_tags", alice);
    assert.deepEqual(
      list.map((t: { name: string }) => t.name),
      ["wren"],
    );
    assert.equal(list[0].following, true);

    const unfollowed = await ok(server, "POST", "/api/v1/tags/wren/unfollow", alice);
    assert.equal(unfollowed.following, false);
    assert.equal((await ok(server, "POST", "/api/v1/tags/wren/unfollow", alice)).following, false);
    assert.deepEqual(await ok(server, "GET", "/api/v1/followed_tags", alice), []);
  });

  it("pages followed_tags newest follow first, with Link headers", async () => {
    const carol = await createUserWithToken(server, "carol");
    for (const name of ["first", "second", "third"]) {
      await ok(server, "POST", `/api/v1/tags/${name}/follow`, carol);
    }
    const page = await call(server, "GET", "/api/v1/followed_tags?limit=2", carol);
    assert.deepEqual(
      page.body.map((t: { name: string }) => t.name),
      ["third", "second"],
    );
    const link = page.headers.get("link") ?? "";
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    assert.ok(next, link);
    assert.match(link, /rel="prev"/);
    const url = new URL(next);
    const rest = await ok(server, "GET", `${url.pathname}${url.search}`, carol);
    assert.deepEqual(
      rest.map((t: { name: string }) => t.name),
      ["first"],
    );
    const bad = await call(server, "GET", "/api/v1/followed_tags?limit=x", carol);
    assert.equal(bad.status >= 400 && bad.status < 500, true);
  });

  it("enforces scopes: read:follows to list, write:follows to (un)follow, a token to change", async () => {
    const reader = await createUserWithToken(server, "reader", ["read:follows"]);
    const writer = await createUserWithToken(server, "writer", ["write:follows"]);
    const other = await createUserWithToken(server, "other", ["read:statuses", "write:statuses"]);
    assert.equal((await call(server, "POST", "/api/v1/tags/x1/follow", null)).status, 401);
    assert.equal((await call(server, "GET", "/api/v1/followed_tags", null)).status, 401);
    assert.equal((await call(server, "POST", "/api/v1/tags/x1/follow", reader)).status, 403);
    assert.equal((await call(server, "POST", "/api/v1/tags/x1/follow", other)).status, 403);
    assert.equal((await call(server, "GET", "/api/v1/followed_tags", writer)).status, 403);
    assert.equal((await call(server, "GET", "/api/v1/followed_tags", other)).status, 403);
    assert.equal((await ok(server, "POST", "/api/v1/tags/x1/follow", writer)).following, true);
    assert.equal((await ok(server, "GET", "/api/v1/followed_tags", reader)).length, 0);
    // Any valid token may read a tag.
    assert.equal((await ok(server, "GET", "/api/v1/tags/x1", writer)).following, true);
  });
});
