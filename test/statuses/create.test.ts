import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { idempotencyKeyHash } from "../../src/services/statuses/idempotency.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json, post } from "./helpers.ts";

const STATUSES = "/api/v1/statuses";

describe("POST /api/v1/statuses", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  it("posts a status with Mastodon's markup, mentions, tags and the app", async () => {
    const body = await post(server, alice, {
      status: "Hello @bob and @nobody!\nsee https://example.com/x #Wren\n\n<script>x</script>",
    });
    assert.match(body.id, /^\d+$/);
    assert.equal(body.account.id, alice.account.id);
    assert.equal(body.visibility, "public");
    assert.equal(body.sensitive, false);
    assert.equal(body.spoiler_text, "");
    assert.equal(body.uri, `${server.url}/users/alice/statuses/${body.id}`);
    assert.equal(body.url, `${server.url}/@alice/${body.id}`);
    assert.equal(
      body.content,
      `<p>Hello <span class="h-card" translate="no"><a href="${server.url}/@bob" class="u-url mention">@<span>bob</span></a></span> and @nobody!<br />see <a href="https://example.com/x" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="">example.com/x</span><span class="invisible"></span></a> <a href="${server.url}/tags/Wren" class="mention hashtag" rel="tag">#<span>Wren</span></a></p><p>&lt;script&gt;x&lt;/script&gt;</p>`,
    );
    assert.deepEqual(body.mentions, [
      { id: bob.account.id, username: "bob", url: `${server.url}/@bob`, acct: "bob" },
    ]);
    assert.deepEqual(body.tags, [{ name: "wren", url: `${server.url}/tags/wren` }]);
    assert.deepEqual(body.application, { name: alice.app.name, website: alice.app.website });
    assert.equal(body.favourited, false);
    assert.equal(body.reblogged, false);
    assert.equal(body.bookmarked, false);
    assert.equal(body.muted, false);
    assert.equal(body.pinned, false);
    assert.equal(body.replies_count, 0);
    assert.equal(body.in_reply_to_id, null);
    assert.equal(body.reblog, null);
    assert.equal(body.poll, null);
    assert.equal(body.card, null);
    assert.equal(body.edited_at, null);
    assert.equal("text" in body, false);
    assert.deepEqual(body.media_attachments, []);
    assert.deepEqual(body.filtered, []);
  });

  it("mentions a local account written with our own domain", async () => {
    const domain = new URL(server.url).host;
    const body = await post(server, alice, { status: `hi @bob@${domain}` });
    assert.deepEqual(
      body.mentions.map((m: Json) => m.id),
      [bob.account.id],
    );
  });

  it("mentions remote accounts this server knows, and shows their full acct", async () => {
    const carl = remoteAccountRecord(server, "carl", "remote.example");
    await server.wren.ctx.storage.accounts.put(carl);
    const body = await post(server, alice, { status: "hey @carl@Remote.Example" });
    assert.deepEqual(body.mentions, [
      { id: carl.id, username: "carl", url: carl.url, acct: "carl@remote.example" },
    ]);
    assert.match(
      body.content,
      /<a href="https:\/\/remote\.example\/@carl" class="u-url mention">@<span>carl<\/span><\/a>/,
    );
  });

  it("uses the author's defaults and honours spoiler_text, visibility and language", async () => {
    const body = await post(server, alice, {
      status: "cw'd",
      spoiler_text: "spoiler",
      visibility: "unlisted",
      language: "de",
    });
    assert.equal(body.visibility, "unlisted");
    assert.equal(body.spoiler_text, "spoiler");
    assert.equal(body.sensitive, true, "a content warning makes the post sensitive");
    assert.equal(body.language, "de");
    const plain = await post(server, alice, { status: "plain" });
    assert.equal(plain.visibility, alice.user.defaultVisibility);
    assert.equal(plain.language, alice.user.defaultLanguage);
  });

  describe("sensitive as a boolean or a string", () => {
    const cases: [unknown, boolean][] = [
      [true, true],
      [false, false],
      ["true", true],
      ["false", false],
      ["1", true],
      ["0", false],
      ["on", true],
      ["off", false],
    ];
    for (const [value, expected] of cases) {
      it(`JSON ${JSON.stringify(value)} → ${expected}`, async () => {
        const body = await post(server, alice, { status: "s", sensitive: value });
        assert.equal(body.sensitive, expected);
      });
    }
    for (const [value, expected] of cases.filter(([v]) => typeof v === "string")) {
      it(`form and multipart "${value}" → ${expected}`, async () => {
        const form = await server.request(STATUSES, {
          method: "POST",
          token: alice.token,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ status: "f", sensitive: value as string }).toString(),
        });
        assert.equal(form.status, 200);
        assert.equal(((await form.json()) as Json).sensitive, expected);
        const data = new FormData();
        data.set("status", "m");
        data.set("sensitive", value as string);
        const multi = await server.request(STATUSES, {
          method: "POST",
          token: alice.token,
          body: data,
        });
        assert.equal(multi.status, 200);
        assert.equal(((await multi.json()) as Json).sensitive, expected);
      });
    }
    it("refuses a value that is not a boolean", async () => {
      const body = await call(
        server,
        "POST",
        STATUSES,
        { token: alice.token, json: { status: "x", sensitive: "maybe" } },
        422,
      );
      assert.match(body.error, /^Validation failed/);
    });
  });

  it("refuses an empty status without media", async () => {
    for (const status of [undefined, "", "   \n "]) {
      const body = await call(
        server,
        "POST",
        STATUSES,
        { token: alice.token, json: status === undefined ? {} : { status } },
        422,
      );
      assert.equal(body.error, "Validation failed: Text can't be blank");
    }
  });

  it("enforces the character limit, counting URLs as 23 and mentions by username", async () => {
    const url = `https://example.com/${"a".repeat(300)}`;
    // 476 characters of text + a URL counted as 23 + a space = 500: allowed.
    await post(server, alice, { status: `${"x".repeat(476)} ${url}` });
    // An unresolved mention counts by username too.
    const mention = "@bob@a-rather-long-domain-name.example";
    await post(server, alice, { status: `${"y".repeat(495)} ${mention}` });
    const body = await call(
      server,
      "POST",
      STATUSES,
      { token: alice.token, json: { status: "z".repeat(501) } },
      422,
    );
    assert.equal(body.error, "Validation failed: Text character limit of 500 exceeded");
    await call(
      server,
      "POST",
      STATUSES,
      { token: alice.token, json: { status: "z".repeat(490), spoiler_text: "c".repeat(11) } },
      422,
    );
  });

  it("validates media_ids and scheduled_at", async () => {
    const bad = await call(
      server,
      "POST",
      STATUSES,
      { token: alice.token, json: { status: "x", media_ids: ["abc"] } },
      422,
    );
    assert.match(bad.error, /^Validation failed: media_ids/);
    const unknown = await call(
      server,
      "POST",
      STATUSES,
      { token: alice.token, json: { status: "x", media_ids: ["123"] } },
      422,
    );
    assert.match(unknown.error, /^Validation failed: Media 123/);
    await call(
      server,
      "POST",
      STATUSES,
      { token: alice.token, json: { status: "x", scheduled_at: "next tuesday" } },
      422,
    );
  });

  it("answers 401 without a token and 403 with a read-only token", async () => {
    const none = await server.request(STATUSES, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "x" }),
    });
    assert.equal(none.status, 401);
    assertMatchesResponse("POST", STATUSES, 401, await none.json());
    const reader = await createUserWithToken(server, "reader", ["read"]);
    await call(server, "POST", STATUSES, { token: reader.token, json: { status: "x" } }, 403);
  });

  it("refuses an unknown visibility", async () => {
    await call(
      server,
      "POST",
      STATUSES,
      { token: alice.token, json: { status: "x", visibility: "everyone" } },
      422,
    );
  });

  describe("replies", () => {
    it("joins the parent's thread and records whom it answers", async () => {
      const root = await post(server, alice, { status: "root" });
      const reply = await post(server, bob, { status: "reply", in_reply_to_id: root.id });
      assert.equal(reply.in_reply_to_id, root.id);
      assert.equal(reply.in_reply_to_account_id, alice.account.id);
      const again = await post(server, alice, { status: "again", in_reply_to_id: reply.id });
      const stored = await server.wren.ctx.storage.statuses.get(again.id);
      assert.equal(stored?.conversationId, root.id);
      const parent = await call(server, "GET", `${STATUSES}/${root.id}`);
      assert.equal(parent.replies_count, 1);
    });

    it("answers 404 for a parent that does not exist or the poster cannot see", async () => {
      const missing = await call(
        server,
        "POST",
        STATUSES,
        { token: bob.token, json: { status: "x", in_reply_to_id: "999999" } },
        404,
      );
      assert.equal(missing.error, "The post you are trying to reply to does not appear to exist.");
      const secret = await post(server, alice, { status: "secret", visibility: "direct" });
      await call(
        server,
        "POST",
        STATUSES,
        { token: bob.token, json: { status: "x", in_reply_to_id: secret.id } },
        404,
      );
    });
  });

  describe("Idempotency-Key", () => {
    it("answers the first status when the same key is sent again", async () => {
      const before = await server.wren.ctx.storage.statuses.countByAccount(alice.account.id);
      const headers = { "Idempotency-Key": "key-1" };
      const first = await post(server, alice, { status: "once" }, headers);
      const second = await post(server, alice, { status: "once" }, headers);
      assert.equal(second.id, first.id);
      const after = await server.wren.ctx.storage.statuses.countByAccount(alice.account.id);
      assert.equal(after, before + 1);
    });

    it("posts twice with different keys, and keys are per account", async () => {
      const a = await post(server, alice, { status: "twice" }, { "Idempotency-Key": "k-a" });
      const b = await post(server, alice, { status: "twice" }, { "Idempotency-Key": "k-b" });
      assert.notEqual(a.id, b.id);
      const other = await post(server, bob, { status: "twice" }, { "Idempotency-Key": "k-a" });
      assert.notEqual(other.id, a.id);
      assert.equal(other.account.id, bob.account.id);
    });

    it("stores a recorded key's status under its recorded id (the first attempt died before)", async () => {
      // What a crash between recording the key and storing the status leaves behind.
      const statusId = server.wren.ctx.ids.next();
      await server.wren.ctx.storage.idempotency.put({
        keyHash: idempotencyKeyHash(alice.account.id, "died-before"),
        statusId,
        createdAt: new Date().toISOString(),
      });
      const headers = { "Idempotency-Key": "died-before" };
      const retried = await post(server, alice, { status: "at last" }, headers);
      assert.equal(retried.id, statusId);
      const again = await post(server, alice, { status: "at last" }, headers);
      assert.equal(again.id, statusId);
    });

    it("posts once when two requests with one key race", async () => {
      const headers = { "Idempotency-Key": "race" };
      const [x, y] = await Promise.all([
        post(server, alice, { status: "race" }, headers),
        post(server, alice, { status: "race" }, headers),
      ]);
      assert.equal(x.id, y.id);
    });
  });
});
