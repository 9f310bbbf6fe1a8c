// Media processing seen from a client: upload over HTTP, let the queue run, then fetch the
// published files from the URLs the API gives and check what processing promised (upright,
// stripped of EXIF and GPS, scaled previews, MP4 for gifv, MP3 for audio). Hostile files are
// refused or fail cleanly, and the server keeps answering.

import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import {
  animatedGif,
  BLUE,
  EXIF_CAMERA,
  isClose,
  jpegWithExif,
  pixelAt,
  pngBomb,
  RED,
  truncatedJpeg,
} from "../helpers/images.ts";
import { mp3WithTags, mp4WithSound, tagsOf } from "../helpers/media-files.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { fetchFile, type Json, send, upload } from "./api.ts";

describe("media processing over HTTP", () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(async () => {
    await server.close();
  });

  /** Every file under the attachments' folder on the local file host. */
  async function hostedFiles(): Promise<string[]> {
    const root = join(server.dataDir, "media", "media_attachments");
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort();
  }

  /** Runs the queue until the attachment is processed, then answers its GET (200). */
  async function processed(id: string): Promise<Json> {
    await server.wren.jobs.runDue();
    return send(server, "GET", `/api/v1/media/${id}`, { token: alice.token }, 200);
  }

  it("publishes a photo upright, without EXIF or GPS, with a scaled preview", async () => {
    const photo = await jpegWithExif(1600, 900);
    const media: Json = await upload(server, alice, {
      file: { bytes: photo, name: "holiday.jpg", type: "image/jpeg" },
    });
    assert.equal(media.type, "image");
    assert.ok(media.url, "images are processed before the answer");

    const { res, bytes } = await fetchFile(media.url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/jpeg");
    const info = await sharp(bytes).metadata();
    assert.equal(info.exif, undefined, "no EXIF (camera, GPS) in the published file");
    assert.ok(!Buffer.from(bytes).includes(Buffer.from(EXIF_CAMERA)));
    assert.equal(`${info.width}x${info.height}`, "900x1600", "turned upright");
    assert.ok(isClose(await pixelAt(bytes, 450, 50), RED), "red on top");
    assert.ok(isClose(await pixelAt(bytes, 450, 1550), BLUE), "blue below");

    const preview = await fetchFile(media.preview_url);
    assert.equal(preview.res.status, 200);
    const small = await sharp(preview.bytes).metadata();
    assert.equal(`${small.width}x${small.height}`, "360x640");
    assert.equal(small.exif, undefined);
    assert.deepEqual(media.meta.original, {
      width: 900,
      height: 1600,
      size: "900x1600",
      aspect: 900 / 1600,
    });
    assert.equal(media.meta.small.size, "360x640");
    assert.equal(media.blurhash.length, 36);
    // Processing replaced the upload: the attachment's only files are the published ones.
    const record = await server.wren.ctx.storage.media.get(media.id);
    assert.equal(record?.uploadKey, null);
  });

  it("turns an animated GIF into a gifv MP4 with a still preview", async () => {
    const media: Json = await upload(server, alice, {
      file: { bytes: await animatedGif(60, 30), name: "dance.gif", type: "image/gif" },
    });
    assert.equal(media.type, "gifv");
    const { res } = await fetchFile(media.url);
    assert.equal(res.headers.get("content-type"), "video/mp4");
    assert.equal(media.meta.original.size, "60x30");
    const preview = await fetchFile(media.preview_url);
    assert.equal(preview.res.headers.get("content-type"), "image/png");
  });

  it("processes a video in the background: 202, then 200 with a tag-free MP4", {}, async () => {
    const queued: Json = await upload(
      server,
      alice,
      {
        file: { bytes: await mp4WithSound("320x240", 25, 1), name: "clip.mp4", type: "video/mp4" },
      },
      {},
      { expected: 202 },
    );
    assert.equal(queued.url, null);

    const media = await processed(queued.id);
    assert.equal(media.type, "video");
    assert.equal(media.meta.original.width, 320);
    assert.equal(media.meta.original.height, 240);
    assert.equal(media.meta.original.frame_rate, "25/1");
    assert.ok(Math.abs(media.meta.original.duration - 1) < 0.15);
    const video = await fetchFile(media.url);
    assert.equal(video.res.headers.get("content-type"), "video/mp4");
    const tags = await tagsOf(video.bytes, "mp4");
    assert.equal(tags.location, undefined, "the GPS position is gone");
    assert.equal(tags.title, undefined);
    const frame = await fetchFile(media.preview_url);
    const still = await sharp(frame.bytes).metadata();
    assert.equal(`${still.width}x${still.height}`, "320x240");
  });

  it("publishes audio as MP3 with its duration and without tags", async () => {
    const queued: Json = await upload(
      server,
      alice,
      { file: { bytes: await mp3WithTags(2), name: "song.mp3", type: "audio/mpeg" } },
      {},
      { expected: 202 },
    );
    const media = await processed(queued.id);
    assert.equal(media.type, "audio");
    assert.ok(Math.abs(media.meta.duration - 2) < 0.1);
    const audio = await fetchFile(media.url);
    assert.equal(audio.res.headers.get("content-type"), "audio/mpeg");
    assert.equal((await tagsOf(audio.bytes, "mp3")).artist, undefined);
  });

  it("answers 422 for a truncated photo and a decompression bomb, leaving nothing behind", async () => {
    const filesBefore = await hostedFiles();
    for (const [bytes, reason] of [
      [await truncatedJpeg(), /damaged or truncated/],
      [pngBomb(30000, 30000), /too large/],
    ] as const) {
      const body: Json = await upload(
        server,
        alice,
        { file: { bytes, name: "photo.jpg", type: "image/jpeg" } },
        {},
        { expected: 422 },
      );
      assert.match(body.error, reason);
    }
    assert.deepEqual(await hostedFiles(), filesBefore);
  });

  it("marks a broken video failed in the background; GET then answers 422", {}, async () => {
    const whole = await mp4WithSound("320x240", 25, 1);
    const queued: Json = await upload(
      server,
      alice,
      { file: { bytes: whole.subarray(0, 700), name: "clip.mp4", type: "video/mp4" } },
      {},
      { expected: 202 },
    );
    await server.wren.jobs.runDue();
    const body: Json = await send(
      server,
      "GET",
      `/api/v1/media/${queued.id}`,
      { token: alice.token },
      422,
    );
    assert.equal(typeof body.error, "string");
    const record = await server.wren.ctx.storage.media.get(queued.id);
    assert.equal(record?.state, "failed");
    assert.equal(record?.uploadKey, null, "the broken upload is deleted");
  });

  it("refuses HTML named .png and an empty file at upload, and keeps serving", async () => {
    const html = new TextEncoder().encode("<!doctype html><html><script>alert(1)</script></html>");
    for (const bytes of [html, new Uint8Array(0)]) {
      const body: Json = await upload(
        server,
        alice,
        { file: { bytes, name: "cat.png", type: "image/png" } },
        {},
        { expected: 422 },
      );
      assert.equal(typeof body.error, "string");
    }
    const res = await server.request("/api/v1/instance");
    assert.equal(res.status, 200);
  });
});
