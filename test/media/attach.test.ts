// Media on statuses: media_ids[] when posting and editing (Mastodon's rules: the instance
// limit, only your own unattached and processed media, no poll next to it, a video alone),
// media_attributes[] on edit, attachments in the Status entity, its history and only_media
// timelines.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createStatus } from "../../src/services/statuses/create-status.ts";
import { idempotencyKeyHash } from "../../src/services/statuses/idempotency.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Json, send, upload, wavTone } from "./api.ts";

describe("media attached to statuses", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  const image = async (user: TestUser, description?: string): Promise<Json> =>
    upload(
      server,
      user,
      { file: { bytes: await solidPng(40, 20), name: "a.png", type: "image/png" } },
      description ? { description } : {},
    );
  const postStatus = (user: TestUser, json: Record<string, unknown>, expected = 200) =>
    send(server, "POST", "/api/v1/statuses", { token: user.token, json }, expected);
  const editStatus = (user: TestUser, id: string, json: Record<string, unknown>, expected = 200) =>
    send(server, "PUT", `/api/v1/statuses/${id}`, { token: user.token, json }, expected);

  it("lets a retry with the same Idempotency-Key take back media a crashed attempt attached", async () => {
    // What a kill between attaching the media and storing the status leaves: the key recorded
    // with the status id, the media pointing at that id, no status.
    const { ctx } = server.wren;
    const picture = await image(alice);
    const statusId = ctx.ids.next();
    const keyHash = idempotencyKeyHash(alice.account.id, "media-retry");
    await ctx.storage.idempotency.put({ keyHash, statusId, createdAt: new Date().toISOString() });
    const media = await ctx.storage.media.get(picture.id as string);
    assert.ok(media);
    await ctx.storage.media.put({ ...media, statusId });
    const status = await createStatus(ctx, {
      accountId: alice.account.id,
      applicationId: null,
      text: "with its picture",
      mediaIds: [picture.id as string],
      idempotencyKey: "media-retry",
    });
    assert.equal(status.id, statusId);
    assert.deepEqual(status.mediaIds, [picture.id]);
  });

  it("lets delete-and-redraft post the deleted status's media again, only for its author", async () => {
    const picture = await image(alice, "redrafted");
    const original = await postStatus(alice, { status: "first try", media_ids: [picture.id] });
    // While the status stands, its media cannot go on another post.
    await postStatus(alice, { status: "again", media_ids: [picture.id] }, 422);
    const deleted = await send(
      server,
      "DELETE",
      `/api/v1/statuses/${original.id}`,
      { token: alice.token },
      200,
    );
    assert.deepEqual(
      deleted.media_attachments.map((m: Json) => m.id),
      [picture.id],
    );
    // Someone else cannot take it, even now.
    await postStatus(bob, { status: "mine?", media_ids: [picture.id] }, 422);
    const redraft = await postStatus(alice, { status: "second try", media_ids: [picture.id] });
    assert.deepEqual(
      redraft.media_attachments.map((m: Json) => [m.id, m.description]),
      [[picture.id, "redrafted"]],
    );
    assert.equal((await server.wren.ctx.storage.media.get(picture.id))?.statusId, redraft.id);
  });

  it("posts media in the order given, without text, as Status.media_attachments", async () => {
    const first = await image(alice, "first");
    const second = await image(alice, "second");
    const status = await postStatus(alice, { media_ids: [second.id, first.id] });
    assert.equal(status.content, "");
    assert.deepEqual(
      status.media_attachments.map((m: Json) => [m.id, m.description]),
      [
        [second.id, "second"],
        [first.id, "first"],
      ],
    );
    assert.deepEqual(status.media_attachments[1], first);
    // Read back, and through a boost, the attachments come along.
    const read = await send(server, "GET", `/api/v1/statuses/${status.id}`, {}, 200);
    assert.deepEqual(read.media_attachments, status.media_attachments);
    const boost = await send(
      server,
      "POST",
      `/api/v1/statuses/${status.id}/reblog`,
      { token: bob.token },
      200,
    );
    assert.deepEqual(boost.reblog.media_attachments, status.media_attachments);
    assert.deepEqual(boost.media_attachments, []);
  });

  it("sends form-encoded media_ids[] as well", async () => {
    const media = await image(alice);
    const body = new URLSearchParams({ status: "form", "media_ids[]": media.id });
    const res = await server.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    assert.equal(res.status, 200);
    const status = (await res.json()) as Json;
    assert.deepEqual(
      status.media_attachments.map((m: Json) => m.id),
      [media.id],
    );
  });

  it("reads an empty form media_ids[]= as no media, not as a bad id", async () => {
    const form = new FormData();
    form.set("status", "no media");
    form.set("media_ids[]", "");
    const status = await send(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, body: form },
      200,
    );
    assert.deepEqual(status.media_attachments, []);
  });

  it("refuses media that cannot be attached, with Mastodon's messages", async () => {
    const ctx = server.wren.ctx;
    const refused = async (json: Record<string, unknown>) =>
      (await postStatus(alice, { status: "x", ...json }, 422)).error as string;

    const five = await Promise.all([1, 2, 3, 4, 5].map(() => image(alice)));
    assert.equal(
      await refused({ media_ids: five.map((m) => m.id) }),
      "Validation failed: Cannot attach more than 4 files",
    );
    const bobs = await image(bob);
    assert.equal(
      await refused({ media_ids: [bobs.id] }),
      `Validation failed: Media ${bobs.id} not found or already attached to another post`,
    );
    const used = await image(alice);
    await postStatus(alice, { status: "first use", media_ids: [used.id] });
    assert.equal(
      await refused({ media_ids: [used.id, "404"] }),
      `Validation failed: Media ${used.id}, 404 not found or already attached to another post`,
    );
    assert.equal(
      await refused({ media_ids: [five[0].id], poll: { options: ["a", "b"], expires_in: 600 } }),
      "Validation failed: Cannot attach more than 4 files",
    );

    // Still processing: not yet attachable.
    await server.wren.jobs.stop();
    try {
      const pending = await upload(
        server,
        alice,
        { file: { bytes: wavTone(), name: "t.wav", type: "audio/wav" } },
        {},
        { expected: 202 },
      );
      assert.equal(
        await refused({ media_ids: [pending.id] }),
        "Validation failed: Cannot attach files that have not finished processing. Try again in a moment!",
      );
      await server.wren.jobs.runDue();
      // Audio goes alone, not next to images.
      assert.equal(
        await refused({ media_ids: [pending.id, five[1].id] }),
        "Validation failed: Cannot attach a video to a post that already contains images",
      );
      const audio = await postStatus(alice, { status: "listen", media_ids: [pending.id] });
      assert.equal(audio.media_attachments[0].type, "audio");
    } finally {
      server.wren.jobs.start();
    }

    // Nothing refused was attached: the uploads are still free to use.
    for (const m of five) assert.equal((await ctx.storage.media.get(m.id))?.statusId, null);
    assert.equal((await ctx.storage.media.get(bobs.id))?.statusId, null);
  });

  it("lets only one of two simultaneous posts take an upload", async () => {
    const media = await image(alice);
    const results = await Promise.all(
      [1, 2].map(() =>
        server.request("/api/v1/statuses", {
          method: "POST",
          token: alice.token,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ status: "race", media_ids: [media.id] }),
        }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 422]);
  });

  it("replaces media on edit, changes attributes, and keeps each version's media", async () => {
    const a = await image(alice, "a");
    const b = await image(alice, "b");
    const c = await image(alice, "c");
    const status = await postStatus(alice, { status: "album", media_ids: [a.id, b.id] });

    // Same media, new description and focus through media_attributes: an edit of its own.
    const described = await editStatus(alice, status.id, {
      media_ids: [a.id, b.id],
      media_attributes: [{ id: b.id, description: "b, described", focus: "0.1,0.2" }],
    });
    assert.notEqual(described.edited_at, null);
    assert.equal(described.media_attachments[1].description, "b, described");
    assert.deepEqual(described.media_attachments[1].meta.focus, { x: 0.1, y: 0.2 });

    // Drop one, add one, reorder; the text is unchanged.
    const replaced = await editStatus(alice, status.id, { media_ids: [c.id, a.id] });
    assert.deepEqual(
      replaced.media_attachments.map((m: Json) => m.id),
      [c.id, a.id],
    );
    assert.equal(replaced.content, status.content);

    // Without media_ids the media stays; media_attributes then applies to it.
    const kept = await editStatus(alice, status.id, {
      status: "album, renamed",
      media_attributes: { 0: { id: c.id, description: "c, described" } },
    });
    assert.deepEqual(
      kept.media_attachments.map((m: Json) => [m.id, m.description]),
      [
        [c.id, "c, described"],
        [a.id, "a"],
      ],
    );

    const history = await send(server, "GET", `/api/v1/statuses/${status.id}/history`, {}, 200);
    assert.deepEqual(
      history.map((v: Json) => v.media_attachments.map((m: Json) => m.id)),
      [
        [a.id, b.id],
        [a.id, b.id],
        [c.id, a.id],
        [c.id, a.id],
      ],
    );

    // Media of this status may be listed again; another status's media may not.
    const other = await image(alice);
    await postStatus(alice, { status: "other", media_ids: [other.id] });
    const refused = await editStatus(alice, status.id, { media_ids: [a.id, other.id] }, 422);
    assert.match(refused.error, new RegExp(`^Validation failed: Media ${other.id} not found`));
    const bobs = await image(bob);
    await editStatus(alice, status.id, { media_ids: [bobs.id] }, 422);
    assert.equal((await server.wren.ctx.storage.media.get(bobs.id))?.statusId, null);

    // An edit that changes nothing makes no new version.
    const same = await editStatus(alice, status.id, { media_ids: [c.id, a.id] });
    assert.equal(same.edited_at, kept.edited_at);
    const bad = await editStatus(
      alice,
      status.id,
      { media_ids: [c.id], media_attributes: [{ id: c.id, focus: "9,9" }] },
      422,
    );
    assert.match(bad.error, /^Validation failed: Focus/);
  });

  it("fills only_media timelines with statuses that carry media", async () => {
    const carol = await createUserWithToken(server, "carol");
    await postStatus(carol, { status: "words only #wrenmedia" });
    const media = await image(carol);
    const withMedia = await postStatus(carol, {
      status: "a picture #wrenmedia",
      media_ids: [media.id],
    });
    const ids = (list: Json[]) => list.map((s) => s.id);

    const account = await send(
      server,
      "GET",
      `/api/v1/accounts/${carol.account.id}/statuses?only_media=true`,
      {},
      200,
    );
    assert.deepEqual(ids(account), [withMedia.id]);
    const all = await send(server, "GET", `/api/v1/accounts/${carol.account.id}/statuses`, {}, 200);
    assert.equal(all.length, 2);

    const pub = await send(server, "GET", "/api/v1/timelines/public?only_media=true", {}, 200);
    assert.ok(ids(pub).includes(withMedia.id));
    assert.ok(pub.every((s: Json) => s.media_attachments.length > 0));

    const tag = await send(
      server,
      "GET",
      "/api/v1/timelines/tag/wrenmedia?only_media=true",
      {},
      200,
    );
    assert.deepEqual(ids(tag), [withMedia.id]);
  });
});
