// Reading, changing and deleting an upload before it is posted: GET, PUT and DELETE
// /api/v1/media/:id. Only the uploader's own unattached media answers; a failed one says why.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { fetchFile, form, type Json, send, upload } from "./api.ts";

describe("GET, PUT and DELETE /api/v1/media/:id", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  const png = async (user: TestUser): Promise<Json> =>
    upload(server, user, {
      file: { bytes: await solidPng(80, 40), name: "a.png", type: "image/png" },
    });

  it("changes the description and the focal point", async () => {
    const media = await png(alice);
    const path = `/api/v1/media/${media.id}`;
    const changed = await send(
      server,
      "PUT",
      path,
      { token: alice.token, body: form({}, { description: "Green", focus: "-1,1" }) },
      200,
    );
    assert.equal(changed.description, "Green");
    assert.deepEqual(changed.meta.focus, { x: -1, y: 1 });
    // The measured meta stays next to the focus.
    assert.equal(changed.meta.original.width, 80);
    assert.equal(changed.url, media.url);

    // JSON works as well; blank focus leaves it, blank description clears it.
    const cleared = await send(
      server,
      "PUT",
      path,
      { token: alice.token, json: { description: "", focus: "" } },
      200,
    );
    assert.equal(cleared.description, null);
    assert.deepEqual(cleared.meta.focus, { x: -1, y: 1 });
    const read = await send(server, "GET", path, { token: alice.token }, 200);
    assert.deepEqual(read, cleared);

    const bad = await send(
      server,
      "PUT",
      path,
      { token: alice.token, json: { focus: "1.5,0" } },
      422,
    );
    assert.match(bad.error, /^Validation failed: Focus/);
  });

  it("replaces the preview with an uploaded thumbnail and removes the one it replaces", async () => {
    const media = await png(alice);
    const path = `/api/v1/media/${media.id}`;
    const thumb = (color: { r: number; g: number; b: number }) =>
      sharp({ create: { width: 100, height: 200, channels: 3, background: color } })
        .jpeg()
        .toBuffer();
    const first = await send(
      server,
      "PUT",
      path,
      {
        token: alice.token,
        body: form({
          thumbnail: { bytes: await thumb({ r: 200, g: 0, b: 0 }), name: "t", type: "x/y" },
        }),
      },
      200,
    );
    assert.notEqual(first.preview_url, media.preview_url);
    const firstFile = await fetchFile(first.preview_url);
    assert.equal(firstFile.res.status, 200);
    assert.equal(firstFile.res.headers.get("content-type"), "image/jpeg");
    assert.equal(typeof first.blurhash, "string");

    const second = await send(
      server,
      "PUT",
      path,
      {
        token: alice.token,
        body: form({
          thumbnail: { bytes: await thumb({ r: 0, g: 0, b: 200 }), name: "t", type: "x/y" },
        }),
      },
      200,
    );
    assert.notEqual(second.preview_url, first.preview_url);
    assert.equal((await fetchFile(second.preview_url)).res.status, 200);
    assert.equal((await fetchFile(first.preview_url)).res.status, 404);
  });

  it("takes a thumbnail as a base64 data: URI in JSON, and says why a JSON Blob is no file", async () => {
    const media = await png(alice);
    const path = `/api/v1/media/${media.id}`;
    const jpeg = await sharp({
      create: { width: 60, height: 60, channels: 3, background: { r: 0, g: 200, b: 0 } },
    })
      .jpeg()
      .toBuffer();
    // Mastodon registers Paperclip's DataUriAdapter: a JSON client may send files this way.
    const changed = await send(
      server,
      "PUT",
      path,
      {
        token: alice.token,
        json: { thumbnail: `data:image/jpeg;base64,${jpeg.toString("base64")}`, description: "G" },
      },
      200,
    );
    assert.notEqual(changed.preview_url, media.preview_url);
    assert.equal(changed.description, "G");
    assert.equal((await fetchFile(changed.preview_url)).res.status, 200);

    // masto.js sends `update({ thumbnail: blob })` as JSON, where the Blob became {}.
    for (const thumbnail of [{}, "not a data uri", "data:image/png;base64,%%%"]) {
      const refused = await send(
        server,
        "PUT",
        path,
        { token: alice.token, json: { thumbnail, description: "H" } },
        422,
      );
      assert.match(
        refused.error,
        /^Validation failed: thumbnail must be a file: send it as a part of a multipart\/form-data body, or as a base64 data: URI/,
      );
    }
    // Nothing of a refused request was applied.
    const read = await send(server, "GET", path, { token: alice.token }, 200);
    assert.equal(read.description, "G");
  });

  it("uploads a file sent as a data: URI", async () => {
    const bytes = await solidPng(30, 20);
    const media = await send(
      server,
      "POST",
      "/api/v2/media",
      { token: alice.token, json: { file: `data:image/png;base64,${bytes.toString("base64")}` } },
      200,
    );
    assert.equal(media.type, "image");
    assert.equal(media.meta.original.width, 30);
  });

  it("answers 404 for someone else's media and for unknown ids", async () => {
    const media = await png(alice);
    const path = `/api/v1/media/${media.id}`;
    for (const method of ["GET", "PUT", "DELETE"]) {
      const json = method === "PUT" ? { description: "mine now" } : undefined;
      const body = await send(server, method, path, { token: bob.token, json }, 404);
      assert.equal(body.error, "Record not found");
    }
    await send(server, "GET", "/api/v1/media/999999999", { token: alice.token }, 404);
    const res = await server.request("/api/v1/media/abc", { token: alice.token });
    assert.equal(res.status, 404);
    // Bob's attempts changed nothing.
    const read = await send(server, "GET", path, { token: alice.token }, 200);
    assert.equal(read.description, null);
  });

  it("hides posted media from these endpoints and refuses to delete it", async () => {
    const media = await png(alice);
    await send(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "posted", media_ids: [media.id] } },
      200,
    );
    const path = `/api/v1/media/${media.id}`;
    await send(server, "GET", path, { token: alice.token }, 404);
    await send(server, "PUT", path, { token: alice.token, json: { description: "late" } }, 404);
    const refused = await send(server, "DELETE", path, { token: alice.token }, 422);
    assert.equal(refused.error, "Media attachment is currently used by a status");
    assert.equal((await fetchFile(media.url)).res.status, 200);
  });

  it("deletes an unused upload and its files", async () => {
    const media = await png(alice);
    const path = `/api/v1/media/${media.id}`;
    assert.deepEqual(await send(server, "DELETE", path, { token: alice.token }, 200), {});
    await send(server, "GET", path, { token: alice.token }, 404);
    assert.equal((await fetchFile(media.url)).res.status, 404);
    assert.equal((await fetchFile(media.preview_url)).res.status, 404);
    await send(server, "DELETE", path, { token: alice.token }, 404);
  });

  it("answers 422 with the reason for media whose processing failed", async () => {
    const ctx = server.wren.ctx;
    const media = await png(alice);
    const stored = await ctx.storage.media.get(media.id);
    assert.ok(stored);
    await ctx.storage.media.put({
      ...stored,
      state: "failed",
      failureReason: "The image could not be read (the file is damaged or truncated)",
    });
    const path = `/api/v1/media/${media.id}`;
    const body = await send(server, "GET", path, { token: alice.token }, 422);
    assert.equal(body.error, "The image could not be read (the file is damaged or truncated)");
    await send(server, "PUT", path, { token: alice.token, json: { description: "x" } }, 422);
    // A failed upload can still be deleted by its owner.
    await send(server, "DELETE", path, { token: alice.token }, 200);
  });
});
