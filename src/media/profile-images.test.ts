import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import sharp from "sharp";
import {
  animatedGif,
  BLUE,
  EXIF_CAMERA,
  isClose,
  jpegWithExif,
  pixelAt,
  pngBomb,
  RED,
  solidPng,
  truncatedJpeg,
} from "../../test/helpers/images.ts";
import { AppError } from "../domain/errors.ts";
import { createLocalDirectoryHost } from "./local-directory.ts";
import {
  discardProfileImage,
  humanSize,
  processProfileImage,
  storeProfileImage,
} from "./profile-images.ts";

const LIMIT = { maxBytes: 8 * 1024 * 1024 };

async function rejects422(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.equal(error.status, 422);
    assert.match(error.message, pattern);
    return true;
  });
}

describe("processProfileImage", () => {
  it("auto-orients, crops an avatar to 400x400 and drops EXIF and GPS data", async () => {
    const input = await jpegWithExif();
    assert.ok((await sharp(input).metadata()).exif, "the fixture carries EXIF");
    const out = await processProfileImage(input, "avatar", LIMIT);
    assert.equal(out.original.contentType, "image/jpeg");
    assert.equal(out.still, null);
    const meta = await sharp(out.original.bytes).metadata();
    assert.equal(meta.width, 400);
    assert.equal(meta.height, 400);
    assert.equal(meta.exif, undefined);
    assert.equal(meta.orientation, undefined);
    assert.ok(!Buffer.from(out.original.bytes).includes(EXIF_CAMERA));
    // Orientation 6 turns the stored left (red) half to the top, the right (blue) to the bottom.
    for (const [x, y, color] of [
      [40, 40, RED],
      [360, 40, RED],
      [40, 360, BLUE],
      [360, 360, BLUE],
    ] as const) {
      assert.ok(isClose(await pixelAt(out.original.bytes, x, y), color), `pixel ${x},${y}`);
    }
  });

  it("crops a header to 1500x500", async () => {
    const out = await processProfileImage(await solidPng(300, 300), "header", LIMIT);
    const meta = await sharp(out.original.bytes).metadata();
    assert.equal(out.original.contentType, "image/png");
    assert.deepEqual([meta.width, meta.height], [1500, 500]);
  });

  it("keeps an animated GIF animated and adds a still PNG", async () => {
    const out = await processProfileImage(await animatedGif(), "avatar", LIMIT);
    assert.equal(out.original.contentType, "image/gif");
    const meta = await sharp(out.original.bytes, { animated: true }).metadata();
    assert.equal(meta.pages, 3);
    assert.equal(meta.width, 400);
    assert.ok(out.still);
    assert.equal(out.still.contentType, "image/png");
    const still = await sharp(out.still.bytes).metadata();
    assert.deepEqual([still.width, still.height, still.pages ?? 1], [400, 400, 1]);
  });

  it("accepts WebP and AVIF, re-encoding AVIF as WebP for every client", async () => {
    const create = { width: 100, height: 80, channels: 3 as const, background: "red" };
    for (const input of [
      await sharp({ create }).webp().toBuffer(),
      await sharp({ create }).avif().toBuffer(),
    ]) {
      const out = await processProfileImage(input, "avatar", LIMIT);
      assert.equal(out.original.contentType, "image/webp");
      assert.equal((await sharp(out.original.bytes).metadata()).format, "webp");
    }
  });

  it("trusts the content, not a name: PNG bytes are processed as PNG", async () => {
    const out = await processProfileImage(await solidPng(), "avatar", LIMIT);
    assert.equal(out.original.extension, "png");
  });

  it("refuses what is not an image, empty, truncated, too large or a bomb with 422", async () => {
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    await rejects422(processProfileImage(html, "avatar", LIMIT), /Avatar content type is invalid/);
    await rejects422(
      processProfileImage(new Uint8Array(0), "avatar", LIMIT),
      /Avatar file is empty/,
    );
    await rejects422(
      processProfileImage(await truncatedJpeg(), "header", LIMIT),
      /Header could not be read/,
    );
    await rejects422(
      processProfileImage(await solidPng(), "avatar", { maxBytes: 100 }),
      /Avatar file size must be less than 100 Bytes/,
    );
    await rejects422(processProfileImage(pngBomb(), "avatar", LIMIT), /dimensions are too large/);
  });

  it("words sizes as Rails does", () => {
    assert.equal(humanSize(2 * 1024 * 1024), "2 MB");
    assert.equal(humanSize(16 * 1024 * 1024), "16 MB");
    assert.equal(humanSize(1536), "1.5 KB");
  });
});

describe("storeProfileImage / discardProfileImage", () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it("stores original and still under server-chosen keys and removes both", async () => {
    const dir = await mkdtemp(join(tmpdir(), "wren-profile-"));
    dirs.push(dir);
    const host = createLocalDirectoryHost(dir, "https://social.example/media");
    const image = await processProfileImage(await animatedGif(), "avatar", LIMIT);
    const ref = await storeProfileImage(host, "123", image);
    assert.equal(ref.kind, "hosted");
    if (ref.kind !== "hosted") return;
    assert.match(ref.key, /^accounts\/avatars\/123\/[0-9a-f]{16}\.gif$/);
    assert.match(ref.staticKey, /^accounts\/avatars\/123\/[0-9a-f]{16}-static\.png$/);
    assert.equal((await readdir(join(dir, "accounts/avatars/123"))).length, 2);
    await discardProfileImage(host, ref);
    assert.deepEqual(await readdir(join(dir, "accounts/avatars/123")), []);
  });
});
