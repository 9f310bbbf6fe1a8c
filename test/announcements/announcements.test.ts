// Announcements end to end with a clock the test moves: what users see (only active ones, in
// chronological order, rendered with mentions, tags and emojis), read state per user, emoji
// reactions (unicode and custom, counts and `me`), and Mastodon's errors and scopes.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAnnouncement } from "../../src/services/announcements/create-announcement.ts";
import { deleteAnnouncement } from "../../src/services/announcements/delete-announcement.ts";
import { updateAnnouncement } from "../../src/services/announcements/update-announcement.ts";
import { addCustomEmoji } from "../../src/services/emojis/add-emoji.ts";
import { manualClock } from "../graph/helpers.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import type { Json } from "../statuses/helpers.ts";

const LIST = "/api/v1/announcements";

describe("announcements", () => {
  const clock = manualClock("2025-03-01T12:00:00.000Z");
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  async function send(
    method: string,
    path: string,
    token: string | undefined,
    expected: number,
  ): Promise<Json> {
    const res = await server.request(path, { method, ...(token ? { token } : {}) });
    const body = (await res.json()) as Json;
    assert.equal(res.status, expected, `${method} ${path}: ${JSON.stringify(body)}`);
    if (method !== "GET" && res.status === 200) {
      // Mastodon answers these actions with an empty object (the spec has no schema for it).
      assert.deepEqual(body, {});
    } else {
      // The spec's paths name the reaction `{name}`; a unicode name matches once decoded.
      assertMatchesResponse(method, decodeURIComponent(path), res.status, body);
    }
    return body;
  }

  const list = (user: TestUser) => send("GET", LIST, user.token, 200);
  const react = (user: TestUser, id: string, name: string, expected = 200) =>
    send("PUT", `${LIST}/${id}/reactions/${encodeURIComponent(name)}`, user.token, expected);
  const unreact = (user: TestUser, id: string, name: string, expected = 200) =>
    send("DELETE", `${LIST}/${id}/reactions/${encodeURIComponent(name)}`, user.token, expected);
  const dismiss = (user: TestUser, id: string, expected = 200) =>
    send("POST", `${LIST}/${id}/dismiss`, user.token, expected);

  before(async () => {
    server = await startTestServer({}, { clock });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    await addCustomEmoji(server.wren.ctx, { shortcode: "blob", image: await solidPng(16, 16) });
  });
  after(() => server.close());

  let welcomeId: string;

  it("shows a published announcement rendered like a post", async () => {
    const created = await createAnnouncement(server.wren.ctx, {
      text: "Welcome @alice! See https://example.com/rules #News :blob: :unknown:",
    });
    welcomeId = created.id;
    const body = await list(bob);
    assert.equal(body.length, 1);
    const [a] = body;
    assertMatchesSchema(a, "Announcement");
    assert.equal(a.id, welcomeId);
    assert.match(
      a.content,
      /^<p>Welcome <span class="h-card" translate="no"><a href="[^"]+\/@alice" class="u-url mention">@<span>alice<\/span><\/a><\/span>!/,
    );
    assert.match(a.content, /<a href="https:\/\/example.com\/rules"/);
    assert.match(a.content, /class="mention hashtag" rel="tag">#<span>News<\/span>/);
    assert.deepEqual(a.mentions, [
      {
        id: alice.account.id,
        username: "alice",
        url: alice.account.url,
        acct: "alice",
      },
    ]);
    assert.deepEqual(a.tags, [{ name: "news", url: `${server.url}/tags/news` }]);
    assert.deepEqual(
      a.emojis.map((e: Json) => e.shortcode),
      ["blob"],
    );
    assert.deepEqual(a.statuses, []);
    assert.deepEqual(a.reactions, []);
    assert.equal(a.read, false);
    assert.equal(a.starts_at, null);
    assert.equal(a.ends_at, null);
    assert.equal(a.all_day, false);
    assert.equal(a.published_at, "2025-03-01T12:00:00.000Z");
    assert.equal(a.updated_at, "2025-03-01T12:00:00.000Z");
  });

  it("keeps read state per user; dismissing twice is fine", async () => {
    await dismiss(alice, welcomeId);
    await dismiss(alice, welcomeId);
    assert.equal((await list(alice))[0].read, true);
    assert.equal((await list(bob))[0].read, false);
  });

  it("counts reactions per name, marks the viewer's own, and shows custom emoji images", async () => {
    await react(alice, welcomeId, "🤔");
    await react(bob, welcomeId, "🤔");
    await react(bob, welcomeId, "🤔"); // again: no second reaction
    clock.advance(1);
    await react(bob, welcomeId, "blob");
    await react(alice, welcomeId, "👍🏽");

    const seenByAlice = (await list(alice))[0].reactions;
    for (const r of seenByAlice) assertMatchesSchema(r, "Reaction");
    assert.deepEqual(
      seenByAlice.map((r: Json) => [r.name, r.count, r.me]),
      [
        ["🤔", 2, true],
        ["blob", 1, false],
        ["👍🏽", 1, true],
      ],
    );
    const custom = seenByAlice[1];
    assert.match(custom.url, /\/media\/emojis\/\d+\/[0-9a-f]+\.png$/);
    assert.match(custom.static_url, /-static\.png$/);
    assert.equal("url" in seenByAlice[0], false);

    const seenByBob = (await list(bob))[0].reactions;
    assert.deepEqual(
      seenByBob.map((r: Json) => [r.name, r.count, r.me]),
      [
        ["🤔", 2, true],
        ["blob", 1, true],
        ["👍🏽", 1, false],
      ],
    );

    await unreact(alice, welcomeId, "🤔");
    await unreact(alice, welcomeId, "👍🏽");
    const after = (await list(alice))[0].reactions;
    assert.deepEqual(
      after.map((r: Json) => [r.name, r.count, r.me]),
      [
        ["🤔", 1, false],
        ["blob", 1, false],
      ],
    );
  });

  it("refuses names that are not an emoji (422) and removing a reaction never given (404)", async () => {
    for (const name of ["notanemoji", "🤔🤔", "a", "nope_unknown", ":blob:"]) {
      const body = await react(alice, welcomeId, name, 422);
      assert.deepEqual(body, { error: "Validation failed: Name is not a recognized emoji" });
    }
    await unreact(alice, welcomeId, "🎉", 404);
  });

  it("allows at most eight different reactions", async () => {
    const extra = ["😀", "😎", "🎉", "🚀", "🌈", "🍕"]; // with 🤔 and blob: eight
    for (const name of extra) await react(alice, welcomeId, name);
    const body = await react(bob, welcomeId, "🐦", 422);
    assert.deepEqual(body, { error: "Validation failed: Limit of different reactions reached" });
    // An existing name can still be added by someone else.
    await react(bob, welcomeId, "🚀");
    for (const name of extra) await unreact(alice, welcomeId, name);
  });

  it("answers 404 for unknown announcements", async () => {
    await dismiss(alice, "999999", 404);
    await react(alice, "999999", "🤔", 404);
    await unreact(alice, "999999", "🤔", 404);
    const res = await server.request(`${LIST}/not-a-number/dismiss`, {
      method: "POST",
      token: alice.token,
    });
    assert.equal(res.status, 404);
  });

  it("enforces tokens and scopes (401, 403, 422 for an app token)", async () => {
    await send("GET", LIST, undefined, 401);
    await send("POST", `${LIST}/${welcomeId}/dismiss`, undefined, 401);
    await send("PUT", `${LIST}/${welcomeId}/reactions/${encodeURIComponent("🤔")}`, undefined, 401);
    const reader = await createUserWithToken(server, "reader", ["read"]);
    assert.equal((await list(reader)).length, 1);
    await dismiss(reader, welcomeId, 403);
    await react(reader, welcomeId, "🤔", 403);
    await unreact(reader, welcomeId, "🤔", 403);
    // Granular scopes are enough.
    const granular = await createUserWithToken(server, "granular", [
      "read:statuses",
      "write:accounts",
      "write:favourites",
    ]);
    await dismiss(granular, welcomeId);
    await react(granular, welcomeId, "🤔");
    const { token: appToken } = await createAppToken(server);
    const res = await server.request(LIST, { token: appToken });
    assert.equal(res.status, 422);
  });

  it("shows an announcement only within its time range, in chronological order", async () => {
    const ctx = server.wren.ctx;
    const soon = await createAnnouncement(ctx, {
      text: "Maintenance window",
      startsAt: "2025-03-01T14:00:00Z",
      endsAt: "2025-03-01T15:00:00Z",
    });
    const early = await createAnnouncement(ctx, {
      text: "Event today",
      startsAt: "2025-03-01T13:00:00Z",
      endsAt: "2025-03-02T13:00:00Z",
      allDay: true,
    });
    const ids = async () => (await list(bob)).map((a: Json) => a.id);
    assert.deepEqual(await ids(), [welcomeId]);
    // Hidden ones cannot be acted on either.
    await dismiss(bob, soon.id, 404);
    await react(bob, soon.id, "🤔", 404);

    clock.advance(3600); // 13:00
    assert.deepEqual(await ids(), [welcomeId, early.id]);
    clock.advance(3600); // 14:00
    assert.deepEqual(await ids(), [welcomeId, early.id, soon.id]);
    const shown = (await list(bob)).find((a: Json) => a.id === early.id);
    assert.equal(shown.all_day, true);
    assert.equal(shown.starts_at, "2025-03-01T13:00:00.000Z");
    assert.equal(shown.ends_at, "2025-03-02T13:00:00.000Z");
    await react(bob, soon.id, "🤔");
    clock.advance(3600); // 15:00: the maintenance has ended
    assert.deepEqual(await ids(), [welcomeId, early.id]);
    await unreact(bob, soon.id, "🤔", 404);
  });

  it("refuses a half-open range, a bad time and an empty text", async () => {
    const ctx = server.wren.ctx;
    for (const [input, reason] of [
      [{ text: "x", startsAt: "2025-03-01T13:00:00Z" }, /Ends at can't be blank/],
      [{ text: "x", endsAt: "2025-03-01T13:00:00Z" }, /Starts at can't be blank/],
      [{ text: "x", startsAt: "tomorrow", endsAt: "2025-03-01T13:00:00Z" }, /Starts at is invalid/],
      [{ text: "   " }, /Text can't be blank/],
    ] as const) {
      await assert.rejects(createAnnouncement(ctx, input), (e: Json) => {
        assert.equal(e.status, 422);
        assert.match(e.message, reason);
        return true;
      });
    }
  });

  it("an update changes the text and updated_at; a deletion removes it with its reactions", async () => {
    const ctx = server.wren.ctx;
    clock.advance(60);
    await updateAnnouncement(ctx, welcomeId, { text: "Welcome, everyone" });
    const updated = (await list(bob)).find((a: Json) => a.id === welcomeId);
    assert.equal(updated.content, "<p>Welcome, everyone</p>");
    assert.deepEqual(updated.mentions, []);
    assert.equal(updated.updated_at, clock.now().toISOString());
    assert.equal(updated.published_at, "2025-03-01T12:00:00.000Z");
    assert.equal(updated.reactions.length > 0, true);

    await deleteAnnouncement(ctx, welcomeId);
    assert.equal(
      (await list(bob)).some((a: Json) => a.id === welcomeId),
      false,
    );
    assert.deepEqual(await ctx.storage.announcementReactions.listByAnnouncement(welcomeId), []);
    assert.equal(
      await ctx.storage.announcementDismissals.get(alice.account.id, welcomeId),
      undefined,
    );
    await dismiss(alice, welcomeId, 404);
  });

  it("keeps announcements, reactions and read state across a restart", async () => {
    const ctx = server.wren.ctx;
    const kept = await createAnnouncement(ctx, { text: "Still here" });
    await react(alice, kept.id, "🎉");
    await dismiss(alice, kept.id);
    await server.restart();
    const shown = (await list(alice)).find((a: Json) => a.id === kept.id);
    assert.equal(shown.read, true);
    assert.deepEqual(
      shown.reactions.map((r: Json) => [r.name, r.count, r.me]),
      [["🎉", 1, true]],
    );
  });
});
