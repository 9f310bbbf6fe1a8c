// GET /api/v2/search: accounts (exact handle first, following, resolve through the remote
// port), statuses (only what the viewer wrote, favourited, bookmarked, was mentioned in, or
// indexable public posts; every term; filters and paging), hashtags (prefix, exact first, Tag
// entities), URLs (local pages, known ids, resolve), the anonymous rules and hostile input.
// Every answer is checked against the Mastodon OpenAPI description.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import type { RemoteResolver } from "../../src/services/remote.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MANY_REQUESTS, post, postStatus, putStatus } from "../timelines/helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

describe("GET /api/v2/search", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let rita: Account;
  let asked: string[];
  let remoteAccounts: Map<string, Account>;
  let remoteStatuses: Map<string, Status>;
  const s = {} as Record<
    | "aliceCats"
    | "bobCats"
    | "bobPrivate"
    | "carolCats"
    | "carolFavourited"
    | "ritaCatsDogs"
    | "mention"
    | "aliceOld",
    string
  >;

  async function search(query: string, token?: string, expected = 200): Promise<Json> {
    const path = `/api/v2/search?${query}`;
    const res = await server.request(path, token ? { token } : {});
    const body: Json = await res.json();
    assert.equal(res.status, expected, `${path}: ${JSON.stringify(body)}`);
    assertMatchesResponse("GET", "/api/v2/search", res.status, body);
    return body;
  }
  const ids = (list: Json[]) => list.map((x) => x.id);

  before(async () => {
    server = await startTestServer(MANY_REQUESTS);
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
    bob = await createUserWithToken(server, "bob", ["read", "write", "follow"]);
    carol = await createUserWithToken(server, "carol", ["read", "write"]);
    const { storage } = server.wren.ctx;
    rita = remoteAccountRecord(server, "rita", "remote.example", {
      displayName: "Rita Cats",
      indexable: true,
    });
    await storage.accounts.put(rita);
    // bob opts into search; carol does not.
    const patch = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: bob.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ indexable: true }),
    });
    assert.equal(patch.status, 200);

    s.aliceOld = (await postStatus(server, alice.token, { status: "an old cats note" })).id;
    s.aliceCats = (
      await postStatus(server, alice.token, { status: "I love #Cats and #CatsOfWren" })
    ).id;
    s.bobCats = (await postStatus(server, bob.token, { status: "Cats are great #catnip" })).id;
    s.bobPrivate = (
      await postStatus(server, bob.token, { status: "secret cats", visibility: "private" })
    ).id;
    s.carolCats = (await postStatus(server, carol.token, { status: "carol's cats, unindexed" })).id;
    s.carolFavourited = (
      await postStatus(server, carol.token, { status: "carol's favourite cats post" })
    ).id;
    await post(server, alice.token, `/api/v1/statuses/${s.carolFavourited}/favourite`);
    s.mention = (
      await postStatus(server, carol.token, {
        status: "@alice look: cats in a box",
        visibility: "direct",
      })
    ).id;
    s.ritaCatsDogs = (
      await putStatus(server, rita, {
        text: "",
        contentHtml: "<p>Cats &amp; dogs, <b>living</b> together</p>",
        tags: ["catsanddogs"],
      })
    ).id;

    asked = [];
    remoteAccounts = new Map();
    remoteStatuses = new Map();
    const resolver: RemoteResolver = {
      async resolveAccount(handleOrUrl) {
        asked.push(handleOrUrl);
        const account = remoteAccounts.get(handleOrUrl);
        if (account) await storage.accounts.put(account);
        return account;
      },
      async resolveStatus(url) {
        asked.push(url);
        const status = remoteStatuses.get(url);
        if (status) await storage.statuses.put(status);
        return status;
      },
    };
    server.wren.ctx.remote = resolver;
  });

  after(() => server.close());

  describe("accounts", () => {
    it("finds accounts by name, the exact handle first", async () => {
      const body = await search("q=rita", alice.token);
      assert.deepEqual(ids(body.accounts), [rita.id]);
      const handle = await search(
        `q=${encodeURIComponent("@rita@remote.example")}&type=accounts`,
        alice.token,
      );
      assert.deepEqual(ids(handle.accounts), [rita.id]);
      assert.equal(handle.accounts[0].acct, "rita@remote.example");
      const local = await search("q=bob&type=accounts", alice.token);
      assert.equal(local.accounts[0].id, bob.account.id);
      assert.deepEqual(local.statuses, []);
      assert.deepEqual(local.hashtags, []);
    });

    it("following=true keeps only followed accounts", async () => {
      const before = await search("q=a&type=accounts&following=true", bob.token);
      assert.deepEqual(before.accounts, []);
      await post(server, bob.token, `/api/v1/accounts/${alice.account.id}/follow`);
      const after = await search("q=a&type=accounts&following=true", bob.token);
      assert.deepEqual(ids(after.accounts), [alice.account.id]);
    });

    it("resolve=true looks an unknown handle up once and puts it first", async () => {
      const zed = remoteAccountRecord(server, "zed", "far.example:8443");
      remoteAccounts.set("zed@far.example:8443", zed);
      asked.length = 0;
      const unresolved = await search("q=zed%40far.example%3A8443", alice.token);
      assert.deepEqual(unresolved.accounts, []);
      assert.deepEqual(asked, []);
      const resolved = await search("q=%40zed%40far.example%3A8443&resolve=true", alice.token);
      assert.deepEqual(asked, ["zed@far.example:8443"]);
      assert.deepEqual(ids(resolved.accounts), [zed.id]);
      assert.equal(resolved.accounts[0].acct, "zed@far.example:8443");
      // Stored: found again without a lookup.
      asked.length = 0;
      const again = await search("q=zed%40far.example%3A8443&resolve=true", alice.token);
      assert.deepEqual(ids(again.accounts), [zed.id]);
      assert.deepEqual(asked, []);
    });
  });

  describe("statuses", () => {
    it("searches what the viewer wrote, favourited, was mentioned in, and indexable posts", async () => {
      const body = await search("q=cats&type=statuses", alice.token);
      assert.deepEqual(ids(body.statuses), [
        s.ritaCatsDogs,
        s.mention,
        s.carolFavourited,
        s.bobCats,
        s.aliceCats,
        s.aliceOld,
      ]);
      // Not carol's unindexed post, nor bob's private one alice may not see.
      const bobs = await search("q=secret&type=statuses", bob.token);
      assert.deepEqual(ids(bobs.statuses), [s.bobPrivate]);
      const alices = await search("q=secret&type=statuses", alice.token);
      assert.deepEqual(alices.statuses, []);
    });

    it("needs every term, matches quoted phrases and remote HTML, any case", async () => {
      const both = await search("q=CATS%20dogs&type=statuses", alice.token);
      assert.deepEqual(ids(both.statuses), [s.ritaCatsDogs]);
      const phrase = await search(`q=${encodeURIComponent('"dogs, living"')}`, alice.token);
      assert.deepEqual(ids(phrase.statuses), [s.ritaCatsDogs]);
      const entity = await search(`q=${encodeURIComponent("cats & dogs")}`, alice.token);
      assert.deepEqual(ids(entity.statuses), [s.ritaCatsDogs]);
      const none = await search("q=cats%20giraffes&type=statuses", alice.token);
      assert.deepEqual(none.statuses, []);
    });

    it("filters by account_id and id range, and pages with offset and limit", async () => {
      const own = await search(`q=cats&type=statuses&account_id=${alice.account.id}`, alice.token);
      assert.deepEqual(ids(own.statuses), [s.aliceCats, s.aliceOld]);
      const older = await search(`q=cats&type=statuses&max_id=${s.bobCats}`, alice.token);
      assert.deepEqual(ids(older.statuses), [s.aliceCats, s.aliceOld]);
      const newer = await search(`q=cats&type=statuses&min_id=${s.carolFavourited}`, alice.token);
      assert.deepEqual(ids(newer.statuses), [s.ritaCatsDogs, s.mention]);
      const page = await search("q=cats&type=statuses&limit=2&offset=1", alice.token);
      assert.deepEqual(ids(page.statuses), [s.mention, s.carolFavourited]);
      // Without a type, offset is ignored (Mastodon).
      const untyped = await search("q=cats&limit=1&offset=3", alice.token);
      assert.deepEqual(ids(untyped.statuses), [s.ritaCatsDogs]);
    });

    it("leaves out authors the viewer blocks or mutes", async () => {
      await post(server, alice.token, `/api/v1/accounts/${carol.account.id}/mute`);
      const body = await search("q=cats&type=statuses", alice.token);
      assert.ok(!ids(body.statuses).includes(s.carolFavourited));
      assert.ok(!ids(body.statuses).includes(s.mention));
      await post(server, alice.token, `/api/v1/accounts/${carol.account.id}/unmute`);
    });

    it("does not search statuses for a single @handle or #tag word", async () => {
      const tag = await search("q=%23cats", alice.token);
      assert.deepEqual(tag.statuses, []);
      const handle = await search("q=%40rita", alice.token);
      assert.deepEqual(handle.statuses, []);
      assert.deepEqual(ids(handle.accounts), [rita.id]);
    });
  });

  describe("hashtags", () => {
    it("finds tags by prefix, the exact one first, as Tag entities", async () => {
      const body = await search("q=%23cats&type=hashtags", alice.token);
      assert.deepEqual(
        body.hashtags.map((t: Json) => t.name),
        ["cats", "catsofwren", "catsanddogs"],
      );
      const tag = body.hashtags[0];
      assert.equal(tag.url, `${server.url}/tags/cats`);
      // A week of use, today first (one post of alice's today), and the searcher's flags.
      assert.equal(tag.history.length, 7);
      assert.equal(tag.history[0].uses, "1");
      assert.equal(tag.following, false);
      assert.match(tag.id, /^\d+$/);
      const again = await search("q=CATS&type=hashtags", alice.token);
      assert.equal(again.hashtags[0].id, tag.id, "a tag keeps its id");
      const prefix = await search("q=cat&type=hashtags", alice.token);
      assert.deepEqual(
        prefix.hashtags.map((t: Json) => t.name),
        ["cats", "catnip", "catsofwren", "catsanddogs"],
      );
      const none = await search("q=dog&type=hashtags", alice.token);
      assert.deepEqual(none.hashtags, []);
      // Anything with @ searches no hashtags.
      const at = await search("q=cats%40x&type=hashtags", alice.token);
      assert.deepEqual(at.hashtags, []);
    });
  });

  describe("URLs", () => {
    it("finds local statuses and profiles by their pages without resolving", async () => {
      asked.length = 0;
      const status = await search(
        `q=${encodeURIComponent(`${server.url}/@alice/${s.aliceCats}`)}`,
        alice.token,
      );
      assert.deepEqual(ids(status.statuses), [s.aliceCats]);
      assert.deepEqual(status.accounts, []);
      const profile = await search(
        `q=${encodeURIComponent(`${server.url}/users/bob`)}&resolve=true`,
        alice.token,
      );
      assert.deepEqual(ids(profile.accounts), [bob.account.id]);
      // A private status stays hidden from someone who may not see it.
      const hidden = await search(
        `q=${encodeURIComponent(`${server.url}/@bob/${s.bobPrivate}`)}&resolve=true`,
        carol.token,
      );
      assert.deepEqual(hidden.statuses, []);
      assert.deepEqual(asked, []);
    });

    it("resolves remote status and actor URLs with resolve=true", async () => {
      const statusUrl = "https://far.example/@zed/1";
      const zed = remoteAccountRecord(server, "zed2", "far.example", {
        uri: "https://far.example/users/zed2",
      });
      await server.wren.ctx.storage.accounts.put(zed);
      const remote: Status = {
        ...(await putStatus(server, zed, { text: "", contentHtml: "<p>far away</p>" })),
        uri: "https://far.example/users/zed2/statuses/1",
      };
      await server.wren.ctx.storage.statuses.put(remote);
      remoteStatuses.set(statusUrl, remote);
      asked.length = 0;
      const found = await search(`q=${encodeURIComponent(statusUrl)}&resolve=true`, alice.token);
      assert.deepEqual(ids(found.statuses), [remote.id]);
      assert.deepEqual(asked, [statusUrl]);

      // Known by its ActivityPub id: no lookup needed.
      asked.length = 0;
      const byUri = await search(`q=${encodeURIComponent(remote.uri)}`, alice.token);
      assert.deepEqual(ids(byUri.statuses), [remote.id]);
      const actor = await search(`q=${encodeURIComponent(zed.uri)}&type=accounts`, alice.token);
      assert.deepEqual(ids(actor.accounts), [zed.id]);
      assert.deepEqual(asked, []);

      // Unknown and unresolvable: nothing, after trying status then account.
      const missing = "https://far.example/nothing";
      const none = await search(`q=${encodeURIComponent(missing)}&resolve=true`, alice.token);
      assert.deepEqual([none.accounts, none.statuses, none.hashtags], [[], [], []]);
      assert.deepEqual(asked, [missing, missing]);
    });

    it("never fetches from a blocked domain", async () => {
      await server.wren.ctx.storage.kv.set({
        key: ["wren", "domainBlock", "blocked.example"],
        value: { domain: "blocked.example", createdAt: new Date().toISOString() },
        expiresAt: null,
      });
      asked.length = 0;
      const url = "https://sub.blocked.example/users/x";
      await search(`q=${encodeURIComponent(url)}&resolve=true`, alice.token);
      assert.deepEqual(asked, []);
    });
  });

  describe("access and hostile input", () => {
    it("answers anonymous searches without statuses, refusing resolve and offset", async () => {
      const body = await search("q=cats");
      assert.deepEqual(body.statuses, []);
      assert.ok(body.hashtags.length > 0);
      const accounts = await search("q=alice");
      assert.deepEqual(ids(accounts.accounts), [alice.account.id]);
      const resolve = await search("q=zed%40x.example&resolve=true", undefined, 401);
      assert.match(resolve.error, /resolve remote resources/);
      const offset = await search("q=cats&type=accounts&offset=1", undefined, 401);
      assert.match(offset.error, /pagination/);
      // An app token is no user either.
      const { token } = await createAppToken(server, ["read"]);
      await search("q=cats&resolve=true", token, 401);
    });

    it("needs read:search and a q", async () => {
      const writer = await createUserWithToken(server, "writer", ["write"]);
      await search("q=cats", writer.token, 403);
      const granular = await createUserWithToken(server, "granular", ["read:search"]);
      await search("q=cats", granular.token);
      for (const query of ["", "q=", "q=%20%20"]) await search(query, alice.token, 400);
    });

    it("keeps bad parameters from doing harm", async () => {
      await search("q=cats&limit=-1", alice.token, 400);
      await search("q=cats&offset=-5&type=statuses", alice.token, 400);
      const lots = await server.request("/api/v2/search?q=cats&limit=lots", {
        token: alice.token,
      });
      assert.equal(lots.status, 422);
      // The spec documents only ValidationError for this 422; the body is the plain Error form.
      assertMatchesSchema(await lots.json(), "Error");
      const capped = await search(`q=a&type=accounts&limit=1000`, alice.token);
      assert.ok(capped.accounts.length <= 40);
      const zero = await search("q=cats&limit=0", alice.token);
      assert.deepEqual([zero.accounts, zero.statuses, zero.hashtags], [[], [], []]);
      const bogus = await search("q=cats&type=bogus", alice.token);
      assert.deepEqual([bogus.accounts, bogus.statuses, bogus.hashtags], [[], [], []]);
      const badIds = await search("q=cats&type=statuses&max_id=abc&min_id=-1", alice.token);
      assert.equal(badIds.statuses.length, 6);
      for (const q of ["http://", "https://[::1", "javascript:alert(1)", "%00", "#", "@", '"']) {
        await search(`q=${encodeURIComponent(q)}&resolve=true`, alice.token);
      }
      const long = await search(`q=${"x".repeat(5000)}`, alice.token);
      assert.deepEqual(long.statuses, []);
    });
  });
});
