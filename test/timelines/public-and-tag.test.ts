// The public timelines (local, remote, only_media, replies) and the hashtag timeline (case,
// any/all/none, names that cannot be hashtags), plus the access rules of every timeline.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { getList, ids, MANY_REQUESTS, postStatus, putStatus } from "./helpers.ts";

describe("public and hashtag timelines", () => {
  let server: TestServer;
  let lee: TestUser;
  const s = {} as Record<
    "local" | "remote" | "media" | "replyToRemote" | "selfReply" | "catsDogs" | "cats" | "dogs",
    string
  >;

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    lee = await createUserWithToken(server, "lee");
    const remote = remoteAccountRecord(server, "rita", "remote.example");
    await server.wren.ctx.storage.accounts.put(remote);

    s.local = (await postStatus(server, lee.token, { status: "local hello" })).id;
    s.remote = (
      await putStatus(server, remote, { text: "remote hello", contentHtml: "<p>remote hello</p>" })
    ).id;
    s.media = (await putStatus(server, lee.account, { mediaIds: ["1"], text: "photo" })).id;
    s.replyToRemote = (
      await putStatus(server, lee.account, {
        inReplyToId: s.remote,
        inReplyToAccountId: remote.id,
        tags: ["cats"],
      })
    ).id;
    s.selfReply = (
      await postStatus(server, lee.token, { status: "and more", in_reply_to_id: s.local })
    ).id;
    s.catsDogs = (await postStatus(server, lee.token, { status: "#cats and #dogs" })).id;
    s.cats = (await postStatus(server, lee.token, { status: "just #Cats" })).id;
    s.dogs = (await postStatus(server, lee.token, { status: "just #dogs" })).id;
  });

  after(() => server.close());

  const tl = async (path: string, token?: string) => ids(await getList(server, path, token));

  it("public: local, remote, only_media, and no replies to others", async () => {
    const all = await tl("/api/v1/timelines/public");
    assert.deepEqual(all, [s.dogs, s.cats, s.catsDogs, s.selfReply, s.media, s.remote, s.local]);
    const local = await tl("/api/v1/timelines/public?local=true");
    assert.deepEqual(local, [s.dogs, s.cats, s.catsDogs, s.selfReply, s.media, s.local]);
    assert.deepEqual(await tl("/api/v1/timelines/public?remote=true"), [s.remote]);
    assert.deepEqual(await tl("/api/v1/timelines/public?only_media=true"), [s.media]);
    // Mastodon applies both switches at once, which leaves nothing.
    assert.deepEqual(await tl("/api/v1/timelines/public?local=true&remote=true"), []);
    assert.deepEqual(await tl("/api/v1/timelines/public?local=false", lee.token), all);
  });

  it("carries list filters into the Link header but not junk parameters", async () => {
    const junk = "x".repeat(5000);
    const page = await getList(
      server,
      `/api/v1/timelines/public?local=true&limit=2&junk=${junk}&Odd%20Name=1`,
    );
    assert.ok(page.next);
    const next = new URL(page.next as string, server.url).searchParams;
    assert.equal(next.get("local"), "true");
    assert.equal(next.get("limit"), "2");
    assert.equal(next.get("max_id"), page.body[1]?.id);
    assert.equal(next.get("junk"), null);
    assert.equal(next.get("Odd Name"), null);
  });

  it("tag: any case, replies included, any/all/none", async () => {
    const cats = [s.cats, s.catsDogs, s.replyToRemote];
    assert.deepEqual(await tl("/api/v1/timelines/tag/cats"), cats);
    assert.deepEqual(await tl("/api/v1/timelines/tag/CATS"), cats);
    assert.deepEqual(await tl("/api/v1/timelines/tag/%23cats"), cats);
    assert.deepEqual(await tl("/api/v1/timelines/tag/cats?any[]=dogs"), [
      s.dogs,
      s.cats,
      s.catsDogs,
      s.replyToRemote,
    ]);
    assert.deepEqual(await tl("/api/v1/timelines/tag/cats?all[]=dogs"), [s.catsDogs]);
    assert.deepEqual(await tl("/api/v1/timelines/tag/cats?none[]=dogs"), [s.cats, s.replyToRemote]);
    assert.deepEqual(await tl("/api/v1/timelines/tag/cats?all=dogs&none=dogs"), []);
    assert.deepEqual(await tl("/api/v1/timelines/tag/cats?local=true&only_media=true"), []);
  });

  it("tag: names that cannot be hashtags give an empty list", async () => {
    for (const name of ["%E2%9C%A8", "two%20words", "a-b", "x".repeat(300), "%00", "nosuchtag"]) {
      const page = await getList(server, `/api/v1/timelines/tag/${name}`);
      assert.deepEqual(page.body, [], name);
      assert.equal(page.next, null);
    }
  });

  it("needs no token for public and hashtag timelines, a user token for home", async () => {
    const app = await createAppToken(server, ["read"]);
    assert.equal((await getList(server, "/api/v1/timelines/public", app.token)).body.length, 7);
    const home = await server.request("/api/v1/timelines/home", { token: app.token });
    assert.equal(home.status, 422);
    assert.deepEqual(await home.json(), { error: "This method requires an authenticated user" });

    const writeOnly = await createUserWithToken(server, "wo", ["write"]);
    for (const path of ["/api/v1/timelines/home", "/api/v1/timelines/public"]) {
      const res = await server.request(path, { token: writeOnly.token });
      assert.equal(res.status, 403, path);
      const body = await res.json();
      assert.deepEqual(body, { error: "This action is outside the authorized scopes" });
      assertMatchesResponse("GET", path, 403, body);
    }
    const granular = await createUserWithToken(server, "gr", ["read:statuses"]);
    assert.equal(
      (await server.request("/api/v1/timelines/home", { token: granular.token })).status,
      200,
    );
    const bad = await server.request("/api/v1/timelines/tag/cats", { token: "not-a-token" });
    assert.equal(bad.status, 401);
    assert.deepEqual(await bad.json(), { error: "The access token is invalid" });
  });

  it("rejects malformed paging with 422 and clamps the page size", async () => {
    for (const path of [
      "/api/v1/timelines/public?max_id=abc",
      "/api/v1/timelines/tag/cats?since_id=-1",
      "/api/v1/timelines/home?min_id=1e5",
      "/api/v1/timelines/public?limit=ten",
    ]) {
      const res = await server.request(path, { token: lee.token });
      assert.equal(res.status, 422, path);
      assert.match(((await res.json()) as { error: string }).error, /^Validation failed/);
    }
    const page = await getList(server, "/api/v1/timelines/public?limit=1000");
    assert.equal(page.body.length, 7);
    const one = await getList(server, "/api/v1/timelines/public?limit=1");
    assert.deepEqual(ids(one), [s.dogs]);
  });
});
