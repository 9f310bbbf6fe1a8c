// Uploading media over real HTTP: POST /api/v2/media (images at once, audio and video in the
// background: 202 → 206 → 200), POST and PUT /api/v1/media (processed before answering), and
// every way an upload is refused with a 422 (or 401/403) rather than a 500.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { EXIF_CAMERA, jpegWithExif, solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { fetchFile, form, send, upload, wavTone } from "./api.ts";

const html = new TextEncoder().encode("<!doctype html><html><script>alert(1)</script></html>");

describe("media uploads", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  it("processes an image at once on v2 and publishes it stripped and upright", async () => {
    const photo = await jpegWithExif(400, 200);
    const body = await upload(
      server,
      alice,
      { file: { bytes: photo, name: "holiday.png", type: "image/png" } },
      { description: "A red and blue flag", focus: "0.5,-0.25" },
    );
    assert.match(body.id, /^\d+$/);
    assert.equal(body.type, "image");
    assert.equal(body.description, "A red and blue flag");
    assert.deepEqual(body.meta.focus, { x: 0.5, y: -0.25 });
    // Upright: the EXIF orientation turned the 400×200 landscape into a 200×400 portrait.
    assert.deepEqual(
      { w: body.meta.original.width, h: body.meta.original.height },
      { w: 200, h: 400 },
    );
    assert.equal(body.meta.original.size, "200x400");
    assert.equal(body.remote_url, null);
    assert.equal(typeof body.blurhash, "string");
    assert.ok(body.url.startsWith(`${server.url}/`), body.url);
    // The client's file name never reaches the URL.
    assert.ok(!body.url.includes("holiday"), body.url);

    const file = await fetchFile(body.url);
    assert.equal(file.res.status, 200);
    assert.equal(file.res.headers.get("content-type"), "image/jpeg");
    const meta = await sharp(file.bytes).metadata();
    assert.equal(meta.width, 200);
    assert.equal(meta.height, 400);
    assert.equal(meta.exif, undefined);
    assert.ok(!Buffer.from(file.bytes).includes(EXIF_CAMERA));

    const preview = await fetchFile(body.preview_url);
    assert.equal(preview.res.status, 200);
    const small = await sharp(preview.bytes).metadata();
    assert.equal(small.width, body.meta.small.width);
    assert.equal(small.height, body.meta.small.height);

    // Still unattached: the uploader can read it back.
    const again = await send(
      server,
      "GET",
      `/api/v1/media/${body.id}`,
      { token: alice.token },
      200,
    );
    assert.deepEqual(again, body);
  });

  it("answers v1 POST and PUT /api/v1/media with the processed attachment", async () => {
    for (const method of ["POST", "PUT"]) {
      const body = await upload(
        server,
        alice,
        { file: { bytes: await solidPng(32, 16), name: "x.png", type: "image/png" } },
        {},
        { path: "/api/v1/media", method },
      );
      assert.equal(body.type, "image");
      assert.notEqual(body.url, null);
      assert.equal(body.meta.original.width, 32);
      assert.equal(body.description, null);
      assert.equal((await fetchFile(body.url)).res.status, 200);
    }
  });

  it("uses an uploaded thumbnail as the preview", async () => {
    const body = await upload(server, alice, {
      file: { bytes: await solidPng(50, 50), name: "a.png", type: "image/png" },
      thumbnail: { bytes: await solidPng(1000, 500), name: "t.png", type: "image/png" },
    });
    const preview = await fetchFile(body.preview_url);
    assert.equal(preview.res.status, 200);
    const meta = await sharp(preview.bytes).metadata();
    // Scaled to fit the 640×640 preview box.
    assert.deepEqual([meta.width, meta.height], [640, 320]);
    assert.notEqual(body.preview_url, body.url);
  });

  it("refuses what is not a supported media file, whatever its name or claimed type", async () => {
    const refused = async (files: Parameters<typeof form>[0], fields = {}) =>
      (await upload(server, alice, files, fields, { expected: 422 })).error as string;

    assert.equal(
      await refused({ file: { bytes: html, name: "cat.png", type: "image/png" } }),
      "Validation failed: File content type is invalid, File is invalid",
    );
    assert.equal(
      await refused({ file: { bytes: new Uint8Array(0), name: "empty.jpg", type: "image/jpeg" } }),
      "Validation failed: File can't be blank",
    );
    assert.equal(
      await refused({}, { description: "no file" }),
      "Validation failed: File can't be blank",
    );
    const png = await solidPng();
    assert.match(
      await refused(
        { file: { bytes: png, name: "a.png", type: "image/png" } },
        { description: "x".repeat(1501) },
      ),
      /^Validation failed: Description is too long \(maximum is 1500 characters\)$/,
    );
    for (const focus of ["2,0", "0", "a,b", "0.1,0.2,0.3", "NaN,0"]) {
      assert.match(
        await refused({ file: { bytes: png, name: "a.png", type: "image/png" } }, { focus }),
        /^Validation failed: Focus/,
        focus,
      );
    }
    assert.match(
      await refused({
        file: { bytes: png, name: "a.png", type: "image/png" },
        thumbnail: { bytes: html, name: "t.png", type: "image/png" },
      }),
      /^Validation failed: Thumbnail content type is invalid/,
    );
    // A JSON body cannot carry a file.
    const json = await send(
      server,
      "POST",
      "/api/v2/media",
      { token: alice.token, json: { file: "aGVsbG8=" } },
      422,
    );
    assert.match(
      json.error,
      /file must be a file: send it as a part of a multipart\/form-data body/,
    );
    // Nothing refused was kept.
    const ids = await server.wren.ctx.storage.media.listUnattachedBefore(
      "2999-01-01T00:00:00.000Z",
      100,
    );
    assert.ok(ids.every((m) => m.state === "ready"));
  });

  it("refuses a file over the image size limit", async () => {
    const small = await startTestServer({ WREN_MAX_IMAGE_BYTES: "2048" });
    try {
      const bob = await createUserWithToken(small, "bob");
      const big = await sharp({
        create: { width: 300, height: 300, channels: 3, background: { r: 9, g: 99, b: 199 } },
      })
        .png({ compressionLevel: 0 })
        .toBuffer();
      const body = await upload(
        small,
        bob,
        { file: { bytes: big, name: "big.png", type: "image/png" } },
        {},
        { expected: 422 },
      );
      assert.equal(body.error, "Validation failed: File file size must be less than 2 KB");
    } finally {
      await small.close();
    }
  });

  it("needs a user token with write:media", async () => {
    const file = { file: { bytes: await solidPng(), name: "a.png", type: "image/png" } };
    const none = await send(server, "POST", "/api/v2/media", { body: form(file) }, 401);
    assert.equal(none.error, "The access token is invalid");
    const reader = await createUserWithToken(server, "reader", ["read"]);
    await send(server, "POST", "/api/v2/media", { token: reader.token, body: form(file) }, 403);
    const writer = await createUserWithToken(server, "writer", ["write:media"]);
    await send(server, "POST", "/api/v1/media", { token: writer.token, body: form(file) }, 200);
  });
});

describe("media processed in the background", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    // The test runs the queue itself, so it sees the attachment before processing.
    await server.wren.jobs.stop();
  });
  after(() => server.close());

  it("answers 202 with url null, then 206 while processing, then 200 with the file", async () => {
    const accepted = await upload(
      server,
      alice,
      { file: { bytes: wavTone(), name: "tone.mp3", type: "audio/mpeg" } },
      { description: "A 440 Hz tone" },
      { expected: 202 },
    );
    assert.equal(accepted.type, "audio");
    assert.equal(accepted.url, null);
    assert.equal(accepted.description, "A 440 Hz tone");

    const path = `/api/v1/media/${accepted.id}`;
    const pending = await send(server, "GET", path, { token: alice.token }, 206);
    assert.equal(pending.url, null);
    // Changing the description while it processes answers 206 too, and survives processing.
    const changed = await send(
      server,
      "PUT",
      path,
      { token: alice.token, json: { description: "A short tone" } },
      206,
    );
    assert.equal(changed.description, "A short tone");

    assert.ok((await server.wren.jobs.runDue()) >= 1);
    const ready = await send(server, "GET", path, { token: alice.token }, 200);
    assert.equal(ready.type, "audio");
    assert.equal(ready.description, "A short tone");
    assert.notEqual(ready.url, null);
    assert.ok(ready.meta.duration > 0.4, JSON.stringify(ready.meta));
    const file = await fetchFile(ready.url);
    assert.equal(file.res.status, 200);
    assert.match(file.res.headers.get("content-type") ?? "", /^audio\//);
    assert.ok(file.bytes.byteLength > 0);
  });

  it("keeps processing across a restart (the job is durable)", async () => {
    const accepted = await upload(
      server,
      alice,
      { file: { bytes: wavTone(0.3), name: "a.wav", type: "audio/wav" } },
      {},
      { expected: 202 },
    );
    await server.restart();
    await server.wren.jobs.stop();
    await server.wren.jobs.runDue();
    const ready = await send(
      server,
      "GET",
      `/api/v1/media/${accepted.id}`,
      { token: alice.token },
      200,
    );
    assert.notEqual(ready.url, null);
  });
});
