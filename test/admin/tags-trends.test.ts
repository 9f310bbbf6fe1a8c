// The admin API's hashtags and trends review, on a server that requires review
// (WREN_TRENDS_REQUIRE_REVIEW): what trends is listed for the staff with `requires_review`, shown
// publicly only once approved (hashtags, statuses, links by themselves or by their publisher),
// never once rejected; a hashtag's flags take effect (usable: no timeline, search or trends;
// listable: no search); users, and staff without the admin scopes, are refused.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { reviewIdOf } from "../../src/domain/trend-review.ts";
import { putPreviewCard, setStatusCard } from "../../src/services/cards/card-records.ts";
import { call, type Json, parseLink } from "../graph/helpers.ts";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MANY_REQUESTS, postStatus } from "../timelines/helpers.ts";

const card = (url: string) => ({
  url,
  title: `About ${url}`,
  description: "",
  type: "link" as const,
  authorName: "",
  authorUrl: "",
  providerName: "",
  providerUrl: "",
  imageKey: null,
  width: 0,
  height: 0,
  blurhash: null,
  imageDescription: "",
  fetchedAt: "2026-01-01T00:00:00.000Z",
});

describe("the admin API's hashtags and trends review", () => {
  let server: TestServer;
  let mod: TestUser;
  let unscoped: TestUser;
  let user: TestUser;
  let a: TestUser;
  let b: TestUser;
  let c: TestUser;
  const ids: Record<string, string> = {};
  const NEWS = "https://news.example/story";
  const BLOG = "https://blog.example/post";

  const ok = async (method: "GET" | "POST" | "PUT", path: string, body?: Json) => {
    const res = await call(server, method, path, mod.token, body);
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    assertMatchesResponse(method, path.split("?")[0] as string, 200, res.body);
    return res.body;
  };
  const shown = async (path: string) => (await call(server, "GET", path)).body as Json[];
  const tagNames = async () => (await shown("/api/v1/trends/tags")).map((t: Json) => t.name);
  const statusIds = async () => (await shown("/api/v1/trends/statuses")).map((s: Json) => s.id);
  const linkUrls = async () => (await shown("/api/v1/trends/links")).map((l: Json) => l.url);

  before(async () => {
    server = await startTestServer({ ...MANY_REQUESTS, WREN_TRENDS_REQUIRE_REVIEW: "true" });
    const staff = ["read", "write", "admin:read", "admin:write"];
    mod = await createUserWithToken(server, "mod", staff, { role: "moderator" });
    unscoped = await createUserWithToken(server, "unscoped", ["read", "write"], {
      role: "admin",
    });
    user = await createUserWithToken(server, "user", staff);
    [a, b, c] = await createUsers(server, "a", "b", "c");
    for (const u of [a, b, c]) {
      await call(server, "PATCH", "/api/v1/accounts/update_credentials", u.token, {
        discoverable: true,
      });
    }
    const postAs = async (key: string, who: TestUser, status: string) => {
      ids[key] = (await postStatus(server, who.token, { status })).id;
    };
    await postAs("t1", a, "#cats #dogs");
    await postAs("t2", b, "#Cats");
    await postAs("t3", c, "#cats #dogs #catsandmore");
    await postAs("solo", a, "#solo");
    await postAs("s1", a, "one");
    await postAs("s2", b, "two");
    await postAs("s3", c, "three");
    for (const key of ["s1", "s2", "s3"]) {
      for (const who of [a, b, c]) {
        await call(server, "POST", `/api/v1/statuses/${ids[key]}/favourite`, who.token);
      }
    }
    const ctx = server.wren.ctx;
    for (const [key, url] of [
      ["s1", NEWS],
      ["s2", BLOG],
    ] as const) {
      await putPreviewCard(ctx, card(url));
      await setStatusCard(ctx, ids[key] as string, url);
    }
  });
  after(() => server.close());

  it("lists unreviewed trending hashtags for the staff, and shows none publicly", async () => {
    const tags: Json[] = await ok("GET", "/api/v1/admin/trends/tags");
    assert.deepEqual(tags.map((t) => t.name).sort(), ["cats", "dogs"]);
    for (const tag of tags) {
      assert.equal(tag.requires_review, true);
      assert.equal(tag.trendable, false);
      assert.equal(tag.usable, true);
      assert.equal(tag.listable, true);
      assert.equal(tag.id, reviewIdOf("tag", tag.name));
    }
    assert.deepEqual(await tagNames(), []);
    assert.deepEqual(await statusIds(), []);
    assert.deepEqual(await linkUrls(), []);
  });

  it("shows approved hashtags and statuses, never rejected ones", async () => {
    const cats = await ok("POST", `/api/v1/admin/trends/tags/${reviewIdOf("tag", "cats")}/approve`);
    assert.equal(cats.trendable, true);
    assert.equal(cats.requires_review, false);
    const dogs = await ok("POST", `/api/v1/admin/trends/tags/${reviewIdOf("tag", "dogs")}/reject`);
    assert.equal(dogs.trendable, false);
    assert.equal(dogs.requires_review, false);
    assert.deepEqual(await tagNames(), ["cats"]);

    const listed: Json[] = await ok("GET", "/api/v1/admin/trends/statuses");
    assert.deepEqual(listed.map((s) => s.id).sort(), [ids.s1, ids.s2, ids.s3].sort());
    assert.ok(listed.every((s) => s.requires_review === true));
    for (const key of ["s1", "s2"]) {
      const approved = await ok("POST", `/api/v1/admin/trends/statuses/${ids[key]}/approve`);
      assert.equal(approved.requires_review, false);
    }
    await ok("POST", `/api/v1/admin/trends/statuses/${ids.s3}/reject`);
    assert.deepEqual((await statusIds()).sort(), [ids.s1, ids.s2].sort());
  });

  it("shows a link once it or its publisher is approved", async () => {
    const links: Json[] = await ok("GET", "/api/v1/admin/trends/links");
    assert.deepEqual(links.map((l) => l.url).sort(), [BLOG, NEWS]);
    assert.ok(links.every((l) => l.requires_review === true));
    const publishers: Json[] = await ok("GET", "/api/v1/admin/trends/links/publishers");
    assert.deepEqual(publishers.map((p) => p.domain).sort(), ["blog.example", "news.example"]);
    const news = publishers.find((p) => p.domain === "news.example");
    const approved = await ok("POST", `/api/v1/admin/trends/links/publishers/${news.id}/approve`);
    assert.equal(approved.trendable, true);
    assert.equal(typeof approved.reviewed_at, "string");
    assert.deepEqual(await linkUrls(), [NEWS]);

    const blog = links.find((l) => l.url === BLOG);
    await ok("POST", `/api/v1/admin/trends/links/${blog.id}/approve`);
    assert.deepEqual((await linkUrls()).sort(), [BLOG, NEWS]);
    const rejected = await ok("POST", `/api/v1/admin/trends/links/${blog.id}/reject`);
    assert.equal(rejected.requires_review, false);
    assert.deepEqual(await linkUrls(), [NEWS]);
  });

  it("lists the hashtags that trended or were reviewed, paged by id", async () => {
    const all: Json[] = await ok("GET", "/api/v1/admin/tags");
    assert.deepEqual(all.map((t) => t.name).sort(), ["cats", "dogs"]);
    const res = await call(server, "GET", "/api/v1/admin/tags?limit=1", mod.token);
    assert.equal(res.body.length, 1);
    const next = parseLink(res.headers.get("link")).next as URL;
    const rest = await call(server, "GET", `${next.pathname}${next.search}`, mod.token);
    assert.deepEqual(
      [...res.body, ...rest.body].map((t: Json) => t.id),
      all.map((t) => t.id),
    );
    // A hashtag that never trended is found among the recent ones; an unknown id is not.
    const solo = await ok("GET", `/api/v1/admin/tags/${reviewIdOf("tag", "solo")}`);
    assert.equal(solo.name, "solo");
    assert.equal(solo.requires_review, false);
    assert.equal(solo.history.length, 7);
    assert.equal((await call(server, "GET", "/api/v1/admin/tags/12345", mod.token)).status, 404);
  });

  it("takes a hashtag's flags into effect", async () => {
    const catsId = reviewIdOf("tag", "cats");
    const search = async (q: string) =>
      (
        (await call(server, "GET", `/api/v2/search?q=${q}&type=hashtags`)).body.hashtags as Json[]
      ).map((t) => t.name);
    assert.deepEqual(await search("cats"), ["cats", "catsandmore"]);
    assert.deepEqual(await search("dogs"), ["dogs"]);
    // Only reviewed hashtags (or the exact name) with exclude_unreviewed.
    assert.deepEqual(
      (
        await call(server, "GET", "/api/v2/search?q=cat&type=hashtags&exclude_unreviewed=true")
      ).body.hashtags.map((t: Json) => t.name),
      ["cats"],
    );

    const renamed = await ok("PUT", `/api/v1/admin/tags/${catsId}`, { display_name: "CATS" });
    assert.equal(renamed.name, "CATS");
    const refused = await call(server, "PUT", `/api/v1/admin/tags/${catsId}`, mod.token, {
      display_name: "dogs",
    });
    assert.equal(refused.status, 422);
    assert.equal(typeof refused.body.error, "string");

    const unusable = await ok("PUT", `/api/v1/admin/tags/${catsId}`, { usable: false });
    assert.equal(unusable.usable, false);
    assert.equal(unusable.trendable, true);
    assert.deepEqual(await tagNames(), []);
    assert.deepEqual(await shown("/api/v1/timelines/tag/cats"), []);
    assert.deepEqual(await search("cats"), ["catsandmore"]);

    const dogsId = reviewIdOf("tag", "dogs");
    const unlisted = await ok("PUT", `/api/v1/admin/tags/${dogsId}`, {
      listable: false,
      trendable: true,
    });
    assert.equal(unlisted.listable, false);
    assert.deepEqual(await search("dogs"), []);
    assert.equal((await shown("/api/v1/timelines/tag/dogs")).length, 2);
    assert.deepEqual(await tagNames(), ["dogs"]);

    await ok("PUT", `/api/v1/admin/tags/${catsId}`, { usable: true });
    assert.equal((await shown("/api/v1/timelines/tag/cats")).length, 3);
  });

  it("refuses users, tokens without the admin scopes and anonymous callers", async () => {
    const catsId = reviewIdOf("tag", "cats");
    const routes: ["GET" | "POST" | "PUT", string][] = [
      ["GET", "/api/v1/admin/tags"],
      ["GET", `/api/v1/admin/tags/${catsId}`],
      ["PUT", `/api/v1/admin/tags/${catsId}`],
      ["GET", "/api/v1/admin/trends/tags"],
      ["GET", "/api/v1/admin/trends/statuses"],
      ["GET", "/api/v1/admin/trends/links"],
      ["GET", "/api/v1/admin/trends/links/publishers"],
      ["POST", `/api/v1/admin/trends/tags/${catsId}/approve`],
      ["POST", `/api/v1/admin/trends/statuses/${ids.s1}/reject`],
      ["POST", `/api/v1/admin/trends/links/1/approve`],
      ["POST", `/api/v1/admin/trends/links/publishers/1/reject`],
    ];
    for (const [method, path] of routes) {
      assert.equal((await call(server, method, path, user.token)).status, 403, path);
      assert.equal((await call(server, method, path, unscoped.token)).status, 403, path);
      assert.equal((await call(server, method, path)).status, 401, path);
    }
    assert.deepEqual(await statusIds().then((s) => s.sort()), [ids.s1, ids.s2].sort());
  });
});
