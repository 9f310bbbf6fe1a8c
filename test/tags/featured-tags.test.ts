// Featured hashtags: GET/POST/DELETE /api/v1/featured_tags, suggestions, POST
// /api/v1/tags/:name/feature|unfeature, and GET /api/v1/accounts/:id/featured_tags, with the
// counts of the owner's own public and unlisted statuses carrying the tag.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, ok, post } from "./helpers.ts";

describe("featured hashtags", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  const names = (list: Json[]) => list.map((t) => t.name);

  it("features a tag with the owner's public and unlisted statuses counted", async () => {
    const newest = await post(server, alice, "hello #Birds", "unlisted");
    await post(server, alice, "#birds again");
    await post(server, alice, "private #birds", "private");
    await post(server, bob, "someone else's #birds");
    await post(server, alice, "#birds first");
    const created = await ok(server, "POST", "/api/v1/featured_tags", alice, { name: "#Birds" });
    assert.equal(created.name, "Birds");
    assert.equal(created.statuses_count, "3");
    assert.equal(created.last_status_at, newest.created_at.slice(0, 10));
    assert.equal(created.url, `${server.wren.ctx.settings.publicUrl}/@alice/tagged/birds`);

    const mine = await ok(server, "GET", "/api/v1/featured_tags", alice);
    assert.deepEqual(mine, [created]);
    const theirs = await ok(
      server,
      "GET",
      `/api/v1/accounts/${alice.account.id}/featured_tags`,
      null,
    );
    assert.deepEqual(theirs, [created]);
    assert.deepEqual(
      await ok(server, "GET", `/api/v1/accounts/${bob.account.id}/featured_tags`, null),
      [],
    );
    // The Tag entity says the viewer features it.
    assert.equal((await ok(server, "GET", "/api/v1/tags/birds", alice)).featuring, true);
    assert.equal((await ok(server, "GET", "/api/v1/tags/birds", bob)).featuring, false);
  });

  it("links to a page of the owner's public posts with the tag", async () => {
    const gina = await createUserWithToken(server, "gina");
    await post(server, gina, "tagged post #Moths");
    await post(server, gina, "untagged post");
    await post(server, gina, "followers only #moths", "private");
    const tag = await ok(server, "POST", "/api/v1/featured_tags", gina, { name: "Moths" });
    const res = await server.request(new URL(tag.url).pathname, {
      headers: { accept: "text/html" },
    });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /tagged post/);
    assert.doesNotMatch(html, /untagged post/);
    assert.doesNotMatch(html, /followers only/);
    const bad = await server.request("/@gina/tagged/1234", { headers: { accept: "text/html" } });
    assert.equal(bad.status, 404);
    await bad.text();
  });

  it("refuses an invalid name, a duplicate and an eleventh tag with 422", async () => {
    const carol = await createUserWithToken(server, "carol");
    for (const name of ["1234", "", "no spaces"]) {
      const res = await call(server, "POST", "/api/v1/featured_tags", carol, { name });
      assert.equal(res.status, 422, name);
      assert.equal(res.body.error, "Validation failed: Tag is invalid");
    }
    const missing = await call(server, "POST", "/api/v1/featured_tags", carol, {});
    assert.ok(missing.status >= 400 && missing.status < 500);
    for (let i = 0; i < 10; i++) {
      await ok(server, "POST", "/api/v1/featured_tags", carol, { name: `tag${i}x` });
    }
    const again = await call(server, "POST", "/api/v1/featured_tags", carol, { name: "TAG0X" });
    assert.equal(again.status, 422);
    assert.match(again.body.error, /already been taken/);
    const eleventh = await call(server, "POST", "/api/v1/featured_tags", carol, { name: "more" });
    assert.equal(eleventh.status, 422);
    assert.match(eleventh.body.error, /maximum/);
    assert.equal((await ok(server, "GET", "/api/v1/featured_tags", carol)).length, 10);
  });

  it("deletes one's own featured tag only; others' ids are not found", async () => {
    const dave = await createUserWithToken(server, "dave");
    const tag = await ok(server, "POST", "/api/v1/featured_tags", dave, { name: "gone" });
    const notMine = await call(server, "DELETE", `/api/v1/featured_tags/${tag.id}`, alice);
    assert.equal(notMine.status, 404);
    assert.equal(notMine.body.error, "Record not found");
    assert.equal((await call(server, "DELETE", "/api/v1/featured_tags/123", dave)).status, 404);
    const res = await server.request(`/api/v1/featured_tags/${tag.id}`, {
      method: "DELETE",
      token: dave.token,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
    assert.deepEqual(await ok(server, "GET", "/api/v1/featured_tags", dave), []);
  });

  it("features and unfeatures through /tags/:name, answering the Tag", async () => {
    const erin = await createUserWithToken(server, "erin");
    const featured = await ok(server, "POST", "/api/v1/tags/Cats/feature", erin);
    assert.equal(featured.name, "Cats");
    assert.equal(featured.featuring, true);
    // Idempotent, unlike POST /featured_tags.
    assert.equal((await ok(server, "POST", "/api/v1/tags/cats/feature", erin)).featuring, true);
    assert.deepEqual(names(await ok(server, "GET", "/api/v1/featured_tags", erin)), ["Cats"]);
    const unfeatured = await ok(server, "POST", "/api/v1/tags/cats/unfeature", erin);
    assert.equal(unfeatured.featuring, false);
    assert.equal((await ok(server, "POST", "/api/v1/tags/cats/unfeature", erin)).featuring, false);
    assert.deepEqual(await ok(server, "GET", "/api/v1/featured_tags", erin), []);
    assert.equal((await call(server, "POST", "/api/v1/tags/1234/feature", erin)).status, 422);
  });

  it("suggests the most used tags of one's recent posts that are not featured yet", async () => {
    const frank = await createUserWithToken(server, "frank");
    await post(server, frank, "#often #sometimes");
    await post(server, frank, "#often #sometimes #featuredone");
    await post(server, frank, "#often #rarely");
    await post(server, bob, "#popular elsewhere");
    await ok(server, "POST", "/api/v1/featured_tags", frank, { name: "featuredone" });
    const suggestions = await ok(server, "GET", "/api/v1/featured_tags/suggestions", frank);
    assert.deepEqual(names(suggestions), ["often", "sometimes", "rarely"]);
    assert.equal(suggestions[0].history[0].uses, "3");
    assert.equal(suggestions[0].featuring, false);
  });

  it("enforces read:accounts and write:accounts", async () => {
    const reader = await createUserWithToken(server, "reader", ["read:accounts"]);
    const writer = await createUserWithToken(server, "writer", ["write:accounts"]);
    const follows = await createUserWithToken(server, "follows", ["read:follows", "write:follows"]);
    assert.equal((await call(server, "GET", "/api/v1/featured_tags", null)).status, 401);
    assert.equal((await call(server, "GET", "/api/v1/featured_tags", writer)).status, 403);
    assert.equal(
      (await call(server, "GET", "/api/v1/featured_tags/suggestions", writer)).status,
      403,
    );
    assert.equal(
      (await call(server, "POST", "/api/v1/featured_tags", reader, { name: "x1" })).status,
      403,
    );
    assert.equal((await call(server, "POST", "/api/v1/tags/x1/feature", follows)).status, 403);
    assert.equal((await call(server, "POST", "/api/v1/tags/x1/unfeature", reader)).status, 403);
    await ok(server, "POST", "/api/v1/featured_tags", writer, { name: "x1" });
    assert.deepEqual(names(await ok(server, "GET", "/api/v1/featured_tags", reader)), []);
    assert.equal(
      (await call(server, "GET", `/api/v1/accounts/${writer.account.id}/featured_tags`, follows))
        .status,
      403,
    );
    assert.equal(
      (await call(server, "GET", "/api/v1/accounts/999999/featured_tags", null)).status,
      404,
    );
  });
});
