// Custom emojis end to end: added through the service, listed by GET /api/v1/custom_emojis,
// served as files, refused when hostile, and shown in the `emojis` arrays of statuses and
// accounts that use their `:shortcode:` (unknown shortcodes and other domains' emojis ignored).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import type { Account } from "../../src/domain/account.ts";
import type { CustomEmoji } from "../../src/domain/custom-emoji.ts";
import { addCustomEmoji } from "../../src/services/emojis/add-emoji.ts";
import { removeCustomEmoji } from "../../src/services/emojis/remove-emoji.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { animatedGif, pngBomb, solidPng, truncatedJpeg } from "../helpers/images.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json } from "../statuses/helpers.ts";

async function refusal(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { status?: number; message: string };
    return { status: e.status ?? 0, message: e.message };
  }
  assert.fail("expected a refusal");
}

async function fetchBytes(url: string): Promise<{ status: number; type: string; bytes: Buffer }> {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

describe("custom emojis", () => {
  let server: TestServer;
  let alice: TestUser;
  let blob: CustomEmoji;
  let png: Buffer;
  let gif: Buffer;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    png = await solidPng(32, 32);
    gif = await animatedGif(32, 32);
    blob = await addCustomEmoji(server.wren.ctx, { shortcode: "blob", image: png });
    await addCustomEmoji(server.wren.ctx, {
      shortcode: "party_Parrot",
      image: gif,
      category: "  Birds ",
    });
  });
  after(() => server.close());

  it("lists local emojis publicly, by shortcode, as CustomEmoji entities", async () => {
    const res = await server.request("/api/v1/custom_emojis");
    assert.equal(res.status, 200);
    const body = (await res.json()) as Json[];
    assertMatchesResponse("GET", "/api/v1/custom_emojis", 200, body);
    assert.deepEqual(
      body.map((e) => [e.shortcode, e.category, e.visible_in_picker]),
      [
        ["blob", null, true],
        ["party_Parrot", "Birds", true],
      ],
    );
    for (const e of body) assertMatchesSchema(e, "CustomEmoji");
  });

  it("serves the original as uploaded and a static PNG of the first frame", async () => {
    const [json] = (await (await server.request("/api/v1/custom_emojis")).json()) as Json[];
    const original = await fetchBytes(json.url);
    assert.equal(original.status, 200);
    assert.equal(original.type, "image/png");
    assert.deepEqual(original.bytes, png);
    assert.match(json.url, new RegExp(`/media/emojis/${blob.id}/[0-9a-f]{16}\\.png$`));

    const list = (await (await server.request("/api/v1/custom_emojis")).json()) as Json[];
    const animated = list.find((e) => e.shortcode === "party_Parrot");
    const gifFile = await fetchBytes(animated.url);
    assert.equal(gifFile.type, "image/gif");
    assert.deepEqual(gifFile.bytes, gif);
    const still = await fetchBytes(animated.static_url);
    assert.equal(still.type, "image/png");
    const meta = await sharp(still.bytes).metadata();
    assert.equal(meta.format, "png");
    assert.equal(meta.pages ?? 1, 1);
    assert.equal(meta.width, 32);
  });

  it("refuses hostile and malformed files with 422 and the reason", async () => {
    const ctx = server.wren.ctx;
    const html = Buffer.from("<!doctype html><script>alert(1)</script>");
    const cases: [Uint8Array, RegExp][] = [
      [html, /Image content type is invalid/],
      [Buffer.alloc(0), /Image file is empty/],
      [await truncatedJpeg(), /content type is invalid/], // JPEG is not an emoji format
      [pngBomb(), /dimensions are too large/],
      [png.subarray(0, png.length - 20), /damaged or truncated/],
      [
        Buffer.concat([png.subarray(0, 8), Buffer.alloc(256 * 1024)]),
        /file size must be less than 256 KB/,
      ],
    ];
    for (const [image, reason] of cases) {
      const { status, message } = await refusal(addCustomEmoji(ctx, { shortcode: "bad", image }));
      assert.equal(status, 422, message);
      assert.match(message, reason);
    }
    assert.equal(await ctx.storage.customEmojis.findByShortcode("bad", null), undefined);
  });

  it("refuses bad and taken shortcodes", async () => {
    const ctx = server.wren.ctx;
    for (const [shortcode, reason] of [
      ["a", /Shortcode is too short/],
      ["has-dash", /Shortcode is invalid/],
      ["with space", /Shortcode is invalid/],
      ["ünï", /Shortcode is invalid/],
      [":blob:", /Shortcode is invalid/],
      ["../x", /Shortcode is invalid/],
      ["blob", /Shortcode has already been taken/],
    ] as const) {
      const { status, message } = await refusal(addCustomEmoji(ctx, { shortcode, image: png }));
      assert.equal(status, 422, shortcode);
      assert.match(message, reason);
    }
    // Shortcodes are case-sensitive, as in Mastodon.
    const upper = await addCustomEmoji(ctx, { shortcode: "BLOB", image: png });
    await removeCustomEmoji(ctx, upper.shortcode);
  });

  it("a status lists the emojis its text and content warning use, unknown ones ignored", async () => {
    const status = await call(server, "POST", "/api/v1/statuses", {
      token: alice.token,
      json: { status: "hello :blob: and :nope: and :blob: again", spoiler_text: ":party_Parrot:" },
    });
    assert.deepEqual(
      status.emojis.map((e: Json) => e.shortcode),
      ["party_Parrot", "blob"],
    );
    for (const e of status.emojis) assertMatchesSchema(e, "CustomEmoji");
    const plain = await call(server, "POST", "/api/v1/statuses", {
      token: alice.token,
      json: { status: "no emoji :nope: here, nor in blob:" },
    });
    assert.deepEqual(plain.emojis, []);
    // Reading it back (and through a boost) shows the same.
    const fetched = await call(server, "GET", `/api/v1/statuses/${status.id}`, {});
    assert.equal(fetched.emojis.length, 2);
  });

  it("a poll's options bring their emojis to the status and the poll", async () => {
    const status = await call(server, "POST", "/api/v1/statuses", {
      token: alice.token,
      json: { status: "vote", poll: { options: [":blob: yes", "no"], expires_in: 3600 } },
    });
    assert.deepEqual(
      status.emojis.map((e: Json) => e.shortcode),
      ["blob"],
    );
    assert.deepEqual(
      status.poll.emojis.map((e: Json) => e.shortcode),
      ["blob"],
    );
  });

  it("an account lists the emojis of its display name, bio and fields", async () => {
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        display_name: "Alice :blob:",
        note: "I like :party_Parrot: and :unknown:",
        fields_attributes: [{ name: "mood", value: ":blob:" }],
      }),
    });
    const me = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(me));
    assert.deepEqual(
      me.emojis.map((e: Json) => e.shortcode),
      ["blob", "party_Parrot"],
    );
    const account = await call(server, "GET", `/api/v1/accounts/${alice.account.id}`, {});
    assert.deepEqual(
      account.emojis.map((e: Json) => e.shortcode),
      ["blob", "party_Parrot"],
    );
    // Statuses embed the author with the same emojis.
    const status = await call(server, "POST", "/api/v1/statuses", {
      token: alice.token,
      json: { status: "plain" },
    });
    assert.equal(status.account.emojis.length, 2);
  });

  it("a remote account uses its own server's emojis, never ours", async () => {
    const ctx = server.wren.ctx;
    const now = new Date().toISOString();
    const remote: Account = {
      id: ctx.ids.next(),
      username: "rem",
      domain: "remote.example",
      displayName: "Rem :blob: :wave:",
      note: "",
      noteHtml: "<p>:blob:</p>",
      locked: false,
      bot: false,
      group: false,
      discoverable: true,
      indexable: true,
      fields: [],
      avatar: null,
      header: null,
      uri: "https://remote.example/users/rem",
      url: "https://remote.example/@rem",
      createdAt: now,
      updatedAt: now,
    };
    await ctx.storage.accounts.put(remote);
    const before = await call(server, "GET", `/api/v1/accounts/${remote.id}`, {});
    assert.deepEqual(before.emojis, []);
    await ctx.storage.customEmojis.put({
      id: ctx.ids.next(),
      shortcode: "wave",
      domain: "remote.example",
      imageKey: "emojis/remote/wave.png",
      staticKey: "emojis/remote/wave.png",
      category: null,
      visibleInPicker: true,
      createdAt: now,
      updatedAt: now,
    });
    const after = await call(server, "GET", `/api/v1/accounts/${remote.id}`, {});
    assert.deepEqual(
      after.emojis.map((e: Json) => e.shortcode),
      ["wave"],
    );
    // Remote emojis are not offered in our picker.
    const list = (await (await server.request("/api/v1/custom_emojis")).json()) as Json[];
    assert.equal(
      list.some((e) => e.shortcode === "wave"),
      false,
    );
  });

  it("removing an emoji deletes its files; texts stop showing it", async () => {
    const ctx = server.wren.ctx;
    const status = await call(server, "POST", "/api/v1/statuses", {
      token: alice.token,
      json: { status: "bye :party_Parrot:" },
    });
    assert.equal(status.emojis.length, 1);
    const { url, static_url: staticUrl } = status.emojis[0];
    await removeCustomEmoji(ctx, "party_Parrot");
    assert.equal((await fetchBytes(url)).status, 404);
    assert.equal((await fetchBytes(staticUrl)).status, 404);
    const again = await call(server, "GET", `/api/v1/statuses/${status.id}`, {});
    assert.deepEqual(again.emojis, []);
    const list = (await (await server.request("/api/v1/custom_emojis")).json()) as Json[];
    assert.deepEqual(
      list.map((e) => e.shortcode),
      ["blob"],
    );
    const missing = await refusal(removeCustomEmoji(ctx, "party_Parrot"));
    assert.equal(missing.status, 404);
  });

  it("emojis survive a restart", async () => {
    await server.restart();
    const list = (await (await server.request("/api/v1/custom_emojis")).json()) as Json[];
    assert.deepEqual(
      list.map((e) => e.shortcode),
      ["blob"],
    );
    assert.equal((await fetchBytes(list[0].url)).status, 200);
  });
});
