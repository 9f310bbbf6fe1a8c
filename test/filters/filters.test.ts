// Filters v2 and v1 over HTTP: the records (filters with keywords and statuses, the v1 view of
// one filter per keyword), their validation, ownership and scopes, and what they do to reading:
// `filtered` results on statuses in timelines, threads, profiles and notifications, and `hide`
// filters taking statuses (and notifications) out in their contexts.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Answer, call, type Json } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { follow, postStatus } from "../timelines/helpers.ts";

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** The path template of the operations table for a concrete path. */
function template(path: string): string {
  return (path.split("?")[0] ?? path)
    .replace(/\/filters\/keywords\/\d+/, "/filters/keywords/{id}")
    .replace(/\/filters\/statuses\/\d+/, "/filters/statuses/{id}")
    .replace(/\/filters\/\d+\/(keywords|statuses)$/, "/filters/{filter_id}/$1")
    .replace(/\/filters\/\d+$/, "/filters/{id}");
}

describe("filters", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  before(async () => {
    server = await startTestServer({ WREN_RATE_LIMIT_REQUESTS: "100000" });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    carol = await createUserWithToken(server, "carol");
    await follow(server, bob.token, alice.account);
  });
  after(() => server.close());

  /** A request that must succeed, its body checked against the documented entity. */
  async function ok(user: TestUser, method: Method, path: string, body?: Record<string, unknown>) {
    const res = await call(server, method, path, user.token, body);
    assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.body)}`);
    if (path.startsWith("/api/v1/filters") || path.startsWith("/api/v2/filters")) {
      if (method === "DELETE") assert.deepEqual(res.body, {});
      else assertMatchesResponse(method, template(path), 200, res.body);
    }
    return res.body as Json;
  }

  function assertError(res: Answer, status: number) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(typeof res.body.error, "string");
  }

  async function createFilter(user: TestUser, body: Record<string, unknown>) {
    return ok(user, "POST", "/api/v2/filters", body);
  }

  async function timeline(user: TestUser | null, path: string): Promise<Json[]> {
    const res = await call(server, "GET", path, user?.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("GET", path.split("?")[0] as string, 200, res.body);
    return res.body;
  }

  const find = (list: Json[], id: string) => list.find((s: Json) => s.id === id);

  describe("records", () => {
    it("creates, reads, updates (keywords_attributes with id and _destroy) and deletes a filter", async () => {
      const created = await createFilter(carol, {
        title: "Spoilers",
        context: ["home", "public"],
        filter_action: "hide",
        expires_in: 3600,
        keywords_attributes: [
          { keyword: "finale", whole_word: true },
          { keyword: "ending", whole_word: false },
          { keyword: "", _destroy: true },
        ],
      });
      assert.equal(created.title, "Spoilers");
      assert.deepEqual(created.context, ["home", "public"]);
      assert.equal(created.filter_action, "hide");
      const expires = Date.parse(created.expires_at) - Date.now();
      assert.ok(expires > 3500_000 && expires <= 3600_000, created.expires_at);
      assert.deepEqual(
        created.keywords.map((k: Json) => [k.keyword, k.whole_word]),
        [
          ["finale", true],
          ["ending", false],
        ],
      );
      assert.deepEqual(created.statuses, []);

      assert.deepEqual(await ok(carol, "GET", `/api/v2/filters/${created.id}`), created);
      const listed = await ok(carol, "GET", "/api/v2/filters");
      assert.deepEqual(
        listed.map((f: Json) => f.id),
        [created.id],
      );

      const [finale, ending] = created.keywords;
      const updated = await ok(carol, "PUT", `/api/v2/filters/${created.id}`, {
        title: "Series spoilers",
        context: ["thread"],
        filter_action: "blur",
        expires_in: "",
        keywords_attributes: [
          { id: finale.id, _destroy: true },
          { id: ending.id, keyword: "the end" },
          { keyword: "twist" },
        ],
      });
      assert.equal(updated.title, "Series spoilers");
      assert.deepEqual(updated.context, ["thread"]);
      assert.equal(updated.filter_action, "blur");
      assert.equal(updated.expires_at, null);
      assert.deepEqual(
        updated.keywords.map((k: Json) => [k.id, k.keyword, k.whole_word]),
        [
          [ending.id, "the end", false],
          [updated.keywords[1].id, "twist", true],
        ],
      );

      // A keyword id that is not this filter's is a 404, and nothing changes.
      assertError(
        await call(server, "PUT", `/api/v2/filters/${created.id}`, carol.token, {
          title: "Changed",
          keywords_attributes: [{ id: "12345", keyword: "x" }],
        }),
        404,
      );
      assert.equal((await ok(carol, "GET", `/api/v2/filters/${created.id}`)).title, updated.title);

      await ok(carol, "DELETE", `/api/v2/filters/${created.id}`);
      assertError(await call(server, "GET", `/api/v2/filters/${created.id}`, carol.token), 404);
      assertError(await call(server, "DELETE", `/api/v2/filters/${created.id}`, carol.token), 404);
    });

    it("reads form bodies with keywords_attributes[][keyword] and context[]", async () => {
      const form = new URLSearchParams();
      form.append("title", "Form");
      form.append("context[]", "home");
      form.append("context[]", "notifications");
      form.append("keywords_attributes[][keyword]", "foo");
      form.append("keywords_attributes[][whole_word]", "false");
      form.append("keywords_attributes[][keyword]", "bar");
      form.append("keywords_attributes[][whole_word]", "true");
      const res = await server.request("/api/v2/filters", {
        method: "POST",
        token: carol.token,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      });
      const body = (await res.json()) as Json;
      assert.equal(res.status, 200, JSON.stringify(body));
      assertMatchesResponse("POST", "/api/v2/filters", 200, body);
      assert.deepEqual(body.context, ["home", "notifications"]);
      assert.deepEqual(
        body.keywords.map((k: Json) => [k.keyword, k.whole_word]),
        [
          ["foo", false],
          ["bar", true],
        ],
      );
      await ok(carol, "DELETE", `/api/v2/filters/${body.id}`);
    });

    it("refuses invalid filters with 422 and an error", async () => {
      const bad = [
        { context: ["home"] },
        { title: "  ", context: ["home"] },
        { title: "x" },
        { title: "x", context: ["home", "elsewhere"] },
        { title: "x", context: [] },
        { title: "x", context: ["home"], filter_action: "explode" },
        { title: "x", context: ["home"], expires_in: -5 },
        { title: "x", context: ["home"], expires_in: "soon" },
        { title: "x", context: ["home"], keywords_attributes: [{ keyword: "", whole_word: true }] },
      ];
      for (const body of bad) {
        assertError(await call(server, "POST", "/api/v2/filters", carol.token, body), 422);
      }
      assertError(
        await call(server, "POST", "/api/v2/filters", carol.token, {
          title: "x",
          context: ["home"],
          keywords_attributes: [{ id: "1", keyword: "y" }],
        }),
        404,
      );
      assert.deepEqual(await ok(carol, "GET", "/api/v2/filters"), []);
    });

    it("manages keywords one by one", async () => {
      const filter = await createFilter(carol, { title: "K", context: ["home"] });
      const added = await ok(carol, "POST", `/api/v2/filters/${filter.id}/keywords`, {
        keyword: "heron",
        whole_word: false,
      });
      assert.deepEqual([added.keyword, added.whole_word], ["heron", false]);
      const defaulted = await ok(carol, "POST", `/api/v2/filters/${filter.id}/keywords`, {
        keyword: "egret",
      });
      assert.equal(defaulted.whole_word, true);
      assertError(
        await call(server, "POST", `/api/v2/filters/${filter.id}/keywords`, carol.token, {
          keyword: " ",
        }),
        422,
      );
      assert.deepEqual(await ok(carol, "GET", `/api/v2/filters/${filter.id}/keywords`), [
        added,
        defaulted,
      ]);
      assert.deepEqual(await ok(carol, "GET", `/api/v2/filters/keywords/${added.id}`), added);
      const changed = await ok(carol, "PUT", `/api/v2/filters/keywords/${added.id}`, {
        keyword: "grey heron",
        whole_word: true,
      });
      assert.deepEqual(changed, { id: added.id, keyword: "grey heron", whole_word: true });
      assertError(
        await call(server, "PUT", `/api/v2/filters/keywords/${added.id}`, carol.token, {
          keyword: "",
        }),
        422,
      );
      // Keywords added at the same time all stay (each change is made under the filter's lock).
      const racing = await Promise.all(
        ["a1", "a2", "a3", "a4", "a5"].map((keyword) =>
          ok(carol, "POST", `/api/v2/filters/${filter.id}/keywords`, { keyword }),
        ),
      );
      const raced = await ok(carol, "GET", `/api/v2/filters/${filter.id}/keywords`);
      assert.deepEqual(raced.map((k: Json) => k.keyword).sort(), [
        "a1",
        "a2",
        "a3",
        "a4",
        "a5",
        "egret",
        "grey heron",
      ]);
      for (const k of racing) await ok(carol, "DELETE", `/api/v2/filters/keywords/${k.id}`);
      await ok(carol, "DELETE", `/api/v2/filters/keywords/${added.id}`);
      assertError(
        await call(server, "GET", `/api/v2/filters/keywords/${added.id}`, carol.token),
        404,
      );
      const after = await ok(carol, "GET", `/api/v2/filters/${filter.id}`);
      assert.deepEqual(after.keywords, [defaulted]);
      await ok(carol, "DELETE", `/api/v2/filters/${filter.id}`);
    });

    it("manages statuses one by one; the status must exist and be seen", async () => {
      const filter = await createFilter(carol, { title: "S", context: ["home"] });
      const post = await postStatus(server, alice.token, { status: "a status to filter" });
      const hidden = await postStatus(server, alice.token, {
        status: "only for mentioned",
        visibility: "direct",
      });
      const entry = await ok(carol, "POST", `/api/v2/filters/${filter.id}/statuses`, {
        status_id: post.id,
      });
      assert.equal(entry.status_id, post.id);
      for (const statusId of [post.id, hidden.id, "999999"]) {
        assertError(
          await call(server, "POST", `/api/v2/filters/${filter.id}/statuses`, carol.token, {
            status_id: statusId,
          }),
          422,
        );
      }
      assertError(
        await call(server, "POST", `/api/v2/filters/${filter.id}/statuses`, carol.token, {}),
        422,
      );
      assert.deepEqual(await ok(carol, "GET", `/api/v2/filters/${filter.id}/statuses`), [entry]);
      assert.deepEqual(await ok(carol, "GET", `/api/v2/filters/statuses/${entry.id}`), entry);
      assert.deepEqual((await ok(carol, "GET", `/api/v2/filters/${filter.id}`)).statuses, [entry]);
      await ok(carol, "DELETE", `/api/v2/filters/statuses/${entry.id}`);
      assertError(
        await call(server, "GET", `/api/v2/filters/statuses/${entry.id}`, carol.token),
        404,
      );
      await ok(carol, "DELETE", `/api/v2/filters/${filter.id}`);
    });

    it("answers 404 for another user's filter, keyword and status entry", async () => {
      const post = await postStatus(server, alice.token, { status: "public words" });
      const filter = await createFilter(carol, {
        title: "Mine",
        context: ["home"],
        keywords_attributes: [{ keyword: "mine" }],
      });
      const entry = await ok(carol, "POST", `/api/v2/filters/${filter.id}/statuses`, {
        status_id: post.id,
      });
      const keywordId = filter.keywords[0].id;
      const attempts: [Method, string, Record<string, unknown>?][] = [
        ["GET", `/api/v2/filters/${filter.id}`],
        ["PUT", `/api/v2/filters/${filter.id}`, { title: "Theirs" }],
        ["DELETE", `/api/v2/filters/${filter.id}`],
        ["GET", `/api/v2/filters/${filter.id}/keywords`],
        ["POST", `/api/v2/filters/${filter.id}/keywords`, { keyword: "x" }],
        ["GET", `/api/v2/filters/${filter.id}/statuses`],
        ["POST", `/api/v2/filters/${filter.id}/statuses`, { status_id: post.id }],
        ["GET", `/api/v2/filters/keywords/${keywordId}`],
        ["PUT", `/api/v2/filters/keywords/${keywordId}`, { keyword: "x" }],
        ["DELETE", `/api/v2/filters/keywords/${keywordId}`],
        ["GET", `/api/v2/filters/statuses/${entry.id}`],
        ["DELETE", `/api/v2/filters/statuses/${entry.id}`],
        ["GET", `/api/v1/filters/${keywordId}`],
        ["PUT", `/api/v1/filters/${keywordId}`, { phrase: "x", context: ["home"] }],
        ["DELETE", `/api/v1/filters/${keywordId}`],
      ];
      for (const [method, path, body] of attempts) {
        assertError(await call(server, method, path, bob.token, body), 404);
      }
      assert.deepEqual(await ok(bob, "GET", "/api/v2/filters"), []);
      assert.deepEqual(await ok(carol, "GET", `/api/v2/filters/${filter.id}`), {
        ...filter,
        statuses: [entry],
      });
      await ok(carol, "DELETE", `/api/v2/filters/${filter.id}`);
    });

    it("needs read:filters to read and write:filters to change; no token is a 401", async () => {
      const reader = await createUserWithToken(server, "reader", ["read:filters"]);
      const writer = await createUserWithToken(server, "writer", ["write:filters"]);
      const other = await createUserWithToken(server, "other", ["read:statuses", "write:statuses"]);
      const body = { title: "x", context: ["home"] };
      assertError(await call(server, "POST", "/api/v2/filters", reader.token, body), 403);
      assertError(await call(server, "POST", "/api/v1/filters", reader.token, body), 403);
      assertError(await call(server, "GET", "/api/v2/filters", writer.token), 403);
      assertError(await call(server, "GET", "/api/v1/filters", other.token), 403);
      assertError(await call(server, "POST", "/api/v2/filters", other.token, body), 403);
      assertError(await call(server, "GET", "/api/v2/filters"), 401);
      const made = await createFilter(writer, body);
      assertError(await call(server, "DELETE", `/api/v2/filters/${made.id}`, reader.token), 403);
      assert.equal((await ok(reader, "GET", "/api/v2/filters")).length, 0);
      assertError(await call(server, "GET", `/api/v2/filters/${made.id}`, writer.token), 403);
      assert.equal((await ok(writer, "DELETE", `/api/v2/filters/${made.id}`)).error, undefined);
    });
  });

  describe("v1 compatibility view", () => {
    it("shows one V1::Filter per keyword and writes through to the same records", async () => {
      const v1 = await ok(carol, "POST", "/api/v1/filters", {
        phrase: "Eurovision",
        context: ["home", "public"],
        irreversible: true,
        whole_word: false,
        expires_in: 600,
      });
      assert.equal(v1.phrase, "Eurovision");
      assert.equal(v1.irreversible, true);
      assert.equal(v1.whole_word, false);
      assert.deepEqual(v1.context, ["home", "public"]);
      assert.ok(v1.expires_at);

      // The v2 filter behind it: titled by the phrase, hiding, holding the one keyword.
      const [v2] = await ok(carol, "GET", "/api/v2/filters");
      assert.equal(v2.title, "Eurovision");
      assert.equal(v2.filter_action, "hide");
      assert.deepEqual(v2.keywords, [{ id: v1.id, keyword: "Eurovision", whole_word: false }]);

      // A second keyword makes a second V1::Filter with the same contexts.
      const second = await ok(carol, "POST", `/api/v2/filters/${v2.id}/keywords`, {
        keyword: "song contest",
      });
      const listed = await ok(carol, "GET", "/api/v1/filters");
      assert.deepEqual(
        listed.map((f: Json) => [f.id, f.phrase, f.context, f.irreversible]),
        [
          [v1.id, "Eurovision", ["home", "public"], true],
          [second.id, "song contest", ["home", "public"], true],
        ],
      );
      assert.deepEqual(await ok(carol, "GET", `/api/v1/filters/${second.id}`), listed[1]);

      // The phrase and whole_word always change; the filter's own fields not while it holds
      // several keywords.
      const renamed = await ok(carol, "PUT", `/api/v1/filters/${second.id}`, {
        phrase: "contest",
        whole_word: true,
      });
      assert.deepEqual([renamed.phrase, renamed.whole_word], ["contest", true]);
      assertError(
        await call(server, "PUT", `/api/v1/filters/${second.id}`, carol.token, {
          phrase: "contest",
          context: ["thread"],
        }),
        422,
      );
      assertError(
        await call(server, "PUT", `/api/v1/filters/${second.id}`, carol.token, {
          irreversible: false,
        }),
        422,
      );

      // Deleting a V1::Filter removes the keyword only.
      await ok(carol, "DELETE", `/api/v1/filters/${second.id}`);
      const remaining = await ok(carol, "GET", `/api/v2/filters/${v2.id}`);
      assert.deepEqual(
        remaining.keywords.map((k: Json) => k.id),
        [v1.id],
      );
      // With one keyword left, the filter's fields change through v1 too.
      const moved = await ok(carol, "PUT", `/api/v1/filters/${v1.id}`, {
        context: ["thread"],
        irreversible: false,
      });
      assert.deepEqual([moved.context, moved.irreversible], [["thread"], false]);
      assert.equal((await ok(carol, "GET", `/api/v2/filters/${v2.id}`)).filter_action, "warn");

      for (const body of [
        { context: ["home"] },
        { phrase: "x" },
        { phrase: "x", context: ["nowhere"] },
      ]) {
        assertError(await call(server, "POST", "/api/v1/filters", carol.token, body), 422);
      }
      await ok(carol, "DELETE", `/api/v2/filters/${v2.id}`);
      assert.deepEqual(await ok(carol, "GET", "/api/v1/filters"), []);
    });
  });

  describe("applied to reading", () => {
    it("marks matching statuses with `filtered` in the filter's contexts, whole words as Mastodon", async () => {
      const cats = await postStatus(server, alice.token, { status: "I love my Cats dearly" });
      const cat = await postStatus(server, alice.token, { status: "a cat, sleeping" });
      const concat = await postStatus(server, alice.token, { status: "concatenate strings" });
      const filter = await createFilter(bob, {
        title: "Cats",
        context: ["home"],
        keywords_attributes: [{ keyword: "cat", whole_word: true }],
      });

      const home = await timeline(bob, "/api/v1/timelines/home?limit=40");
      const catJson = find(home, cat.id);
      assert.deepEqual(catJson.filtered, [
        {
          filter: {
            id: filter.id,
            title: "Cats",
            context: ["home"],
            expires_at: null,
            filter_action: "warn",
          },
          keyword_matches: ["cat"],
          status_matches: null,
        },
      ]);
      assert.deepEqual(find(home, cats.id).filtered, [], "whole word: cats is not cat");
      assert.deepEqual(find(home, concat.id).filtered, []);

      // Not a public-context filter: the same status on the public timeline is unmarked.
      const pub = await timeline(bob, "/api/v1/timelines/public?limit=40");
      assert.deepEqual(find(pub, cat.id).filtered, []);
      // A status read alone (no context) lists every matching filter for the client to apply.
      const alone = await ok(bob, "GET", `/api/v1/statuses/${cat.id}`);
      assert.equal(alone.filtered.length, 1);
      // Other viewers' answers carry none of bob's filters; anonymous ones carry no field.
      assert.deepEqual(
        find(await timeline(carol, "/api/v1/timelines/public?limit=40"), cat.id).filtered,
        [],
      );
      assert.equal(
        find(await timeline(null, "/api/v1/timelines/public?limit=40"), cat.id).filtered,
        undefined,
      );

      // Matching the content warning too, without whole words now.
      await ok(bob, "PUT", `/api/v2/filters/${filter.id}`, {
        context: ["home", "public", "account"],
        keywords_attributes: [{ id: filter.keywords[0].id, whole_word: false }],
      });
      const spoiled = await postStatus(server, alice.token, {
        status: "nothing to see",
        spoiler_text: "Concatenation",
      });
      const again = await timeline(bob, "/api/v1/timelines/public?limit=40");
      assert.deepEqual(find(again, concat.id).filtered[0].keyword_matches, ["cat"]);
      assert.deepEqual(find(again, cats.id).filtered[0].keyword_matches, ["Cat"]);
      assert.deepEqual(find(again, spoiled.id).filtered[0].keyword_matches, ["cat"]);
      const profile = await timeline(bob, `/api/v1/accounts/${alice.account.id}/statuses?limit=40`);
      assert.equal(find(profile, cat.id).filtered.length, 1);
      await ok(bob, "DELETE", `/api/v2/filters/${filter.id}`);
      assert.deepEqual(
        find(await timeline(bob, "/api/v1/timelines/home?limit=40"), cat.id).filtered,
        [],
      );
    });

    it("hide filters take statuses out of their contexts only; boosts match by the original", async () => {
      const post = await postStatus(server, alice.token, { status: "Match result: 3-1 #football" });
      const other = await postStatus(server, alice.token, { status: "weather is fine" });
      await follow(server, bob.token, carol.account);
      const boost = await ok(carol, "POST", `/api/v1/statuses/${post.id}/reblog`);
      const filter = await createFilter(bob, {
        title: "Sports",
        context: ["public"],
        filter_action: "hide",
        keywords_attributes: [{ keyword: "#football", whole_word: true }],
      });
      const pub = await timeline(bob, "/api/v1/timelines/public?limit=40");
      assert.equal(find(pub, post.id), undefined, "hidden from the public timeline");
      assert.ok(find(pub, other.id));
      const home = await timeline(bob, "/api/v1/timelines/home?limit=40");
      assert.deepEqual(find(home, post.id)?.filtered, [], "home is not the filter's context");

      // In home too now: the status and carol's boost of it go; a warn filter marks both.
      await ok(bob, "PUT", `/api/v2/filters/${filter.id}`, { context: ["public", "home"] });
      const hiddenHome = await timeline(bob, "/api/v1/timelines/home?limit=40");
      assert.equal(find(hiddenHome, post.id), undefined);
      assert.equal(find(hiddenHome, boost.id), undefined);
      assert.ok(find(hiddenHome, other.id));
      await ok(bob, "PUT", `/api/v2/filters/${filter.id}`, { filter_action: "warn" });
      const warned = await timeline(bob, "/api/v1/timelines/home?limit=40");
      const boostJson = find(warned, boost.id);
      assert.equal(boostJson.filtered[0].filter.id, filter.id);
      assert.deepEqual(boostJson.reblog.filtered, boostJson.filtered);

      // Hidden statuses are left out while the page is filled: a page is never cut short.
      const hidden = [];
      for (let i = 0; i < 3; i++) {
        hidden.push(await postStatus(server, alice.token, { status: `#football again ${i}` }));
      }
      await ok(bob, "PUT", `/api/v2/filters/${filter.id}`, { filter_action: "hide" });
      for (const path of [
        "/api/v1/timelines/home?limit=2",
        "/api/v1/timelines/public?limit=2",
        "/api/v1/timelines/tag/football?limit=2",
      ]) {
        const page = await timeline(bob, path);
        const hiddenIds = new Set([post.id, boost.id, ...hidden.map((h) => h.id)]);
        assert.ok(!page.some((s: Json) => hiddenIds.has(s.id)), path);
        if (!path.includes("/tag/")) assert.equal(page.length, 2, path);
        else assert.equal(page.length, 0, "every #football status is hidden");
      }
      const profilePath = `/api/v1/accounts/${alice.account.id}/statuses?limit=2`;
      const unfiltered = await timeline(bob, profilePath);
      assert.ok(
        unfiltered.some((s: Json) => s.content.includes("football")),
        "not yet account",
      );
      await ok(bob, "PUT", `/api/v2/filters/${filter.id}`, {
        context: ["public", "home", "account"],
      });
      const profile = await timeline(bob, profilePath);
      assert.equal(profile.length, 2);
      assert.ok(!profile.some((s: Json) => s.content.includes("football")));

      // Expired filters stay listed but no longer apply.
      await ok(bob, "PUT", `/api/v2/filters/${filter.id}`, {
        filter_action: "hide",
        expires_in: 0,
      });
      assert.ok(find(await timeline(bob, "/api/v1/timelines/public?limit=40"), post.id));
      assert.equal((await ok(bob, "GET", "/api/v2/filters")).length, 1);
      await ok(bob, "DELETE", `/api/v2/filters/${filter.id}`);
    });

    it("filters named statuses, in threads and notifications", async () => {
      const hello = await postStatus(server, carol.token, { status: "@bob hello there" });
      const root = await postStatus(server, alice.token, { status: "root of a thread" });
      const reply = await postStatus(server, carol.token, {
        status: "@bob a spoiler about the finale",
        in_reply_to_id: root.id,
      });
      const byStatus = await createFilter(bob, { title: "That one", context: ["thread"] });
      await ok(bob, "POST", `/api/v2/filters/${byStatus.id}/statuses`, { status_id: root.id });
      const context = await ok(bob, "GET", `/api/v1/statuses/${reply.id}/context`);
      assert.deepEqual(context.ancestors[0].filtered[0].status_matches, [root.id]);
      assert.equal(context.ancestors[0].filtered[0].keyword_matches, null);

      const hide = await createFilter(bob, {
        title: "Finale",
        context: ["thread", "notifications"],
        filter_action: "warn",
        keywords_attributes: [{ keyword: "finale" }],
      });
      const notifications = await timeline(bob, "/api/v1/notifications");
      const mention = notifications.find((n: Json) => n.status?.id === reply.id);
      assert.ok(mention, "the mention is there while the filter only warns");
      assert.deepEqual(mention.status.filtered[0].keyword_matches, ["finale"]);

      await ok(bob, "PUT", `/api/v2/filters/${hide.id}`, { filter_action: "hide" });
      const after = await timeline(bob, "/api/v1/notifications");
      assert.equal(
        after.find((n: Json) => n.status?.id === reply.id),
        undefined,
      );
      // Left out while the page is filled: the newest page of one holds the older mention.
      const newest = await timeline(bob, "/api/v1/notifications?limit=1");
      assert.deepEqual(
        newest.map((n: Json) => n.status?.id),
        [hello.id],
      );
      const grouped = await call(server, "GET", "/api/v2/notifications", bob.token);
      assert.equal(grouped.status, 200);
      assertMatchesResponse("GET", "/api/v2/notifications", 200, grouped.body);
      assert.equal(
        grouped.body.statuses.find((s: Json) => s.id === reply.id),
        undefined,
      );
      assert.equal(
        grouped.body.notification_groups.find((g: Json) => g.status_id === reply.id),
        undefined,
      );
      const thread = await ok(bob, "GET", `/api/v1/statuses/${root.id}/context`);
      assert.equal(
        thread.descendants.find((s: Json) => s.id === reply.id),
        undefined,
      );
      // Alice has no filters: she still sees the reply in the thread.
      const hers = await ok(alice, "GET", `/api/v1/statuses/${root.id}/context`);
      assert.ok(hers.descendants.find((s: Json) => s.id === reply.id));
      await ok(bob, "DELETE", `/api/v2/filters/${hide.id}`);
      await ok(bob, "DELETE", `/api/v2/filters/${byStatus.id}`);
    });
  });
});
