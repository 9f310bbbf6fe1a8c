import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isBlurhashValid } from "blurhash";
import sharp from "sharp";
import {
  animatedGif,
  BLUE,
  EXIF_CAMERA,
  isClose,
  jpegWithExif,
  noisyJpeg,
  pixelAt,
  pngBomb,
  RED,
  solidPng,
  truncatedJpeg,
} from "../../test/helpers/images.ts";
import { ORIGINAL_PIXEL_LIMIT, processImage } from "./image.ts";
import { SMALL_PIXEL_LIMIT } from "./preview.ts";
import { MediaProcessingError } from "./processing-error.ts";

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof MediaProcessingError, `expected MediaProcessingError, got ${error}`);
    assert.match(error.reason, pattern);
    return true;
  });
}

describe("processImage", () => {
  it("turns a photo upright by its EXIF orientation and drops EXIF and GPS", async () => {
    const input = await jpegWithExif(400, 200);
    const before = await sharp(input).metadata();
    assert.equal(before.orientation, 6, "the fixture carries orientation 6");
    assert.ok(before.exif?.includes(Buffer.from(EXIF_CAMERA)), "the fixture carries camera tags");

    const result = await processImage(input, "image/jpeg");

    assert.equal(result.type, "image");
    assert.equal(result.file.contentType, "image/jpeg");
    assert.equal(result.file.extension, "jpg");
    const after = await sharp(result.file.bytes).metadata();
    assert.equal(after.width, 200);
    assert.equal(after.height, 400);
    assert.equal(after.exif, undefined, "no EXIF block (camera, GPS) is left");
    assert.equal(after.xmp, undefined);
    assert.equal(after.orientation, undefined);
    assert.ok(!Buffer.from(result.file.bytes).includes(Buffer.from(EXIF_CAMERA)));
    // Left red / right blue, turned 90° clockwise: red on top, blue at the bottom.
    assert.ok(isClose(await pixelAt(result.file.bytes, 100, 20), RED));
    assert.ok(isClose(await pixelAt(result.file.bytes, 100, 380), BLUE));
    assert.deepEqual(result.meta?.original, {
      width: 200,
      height: 400,
      size: "200x400",
      aspect: 0.5,
    });
  });

  it("makes a preview within Mastodon's small area, upright, with meta.small and a blurhash", async () => {
    const result = await processImage(await jpegWithExif(1600, 900), "image/jpeg");
    assert.ok(result.preview);
    const preview = await sharp(result.preview.bytes).metadata();
    assert.equal(result.preview.contentType, "image/jpeg");
    assert.ok((preview.width ?? 0) * (preview.height ?? 0) <= SMALL_PIXEL_LIMIT);
    // Upright like the original: taller than wide.
    assert.equal(preview.width, 360);
    assert.equal(preview.height, 640);
    assert.equal(preview.exif, undefined);
    assert.deepEqual(result.meta?.small, {
      width: 360,
      height: 640,
      size: "360x640",
      aspect: 360 / 640,
    });
    // 4×4 components (Mastodon's choice) make a 36-character hash.
    assert.equal(result.blurhash?.length, 36);
    assert.ok(isBlurhashValid(result.blurhash ?? "").result);
  });

  it("scales originals above 3840×2160 pixels down to that area, keeping the aspect ratio", async () => {
    const result = await processImage(await noisyJpeg(4000, 3000), "image/jpeg");
    const { width = 0, height = 0 } = await sharp(result.file.bytes).metadata();
    assert.ok(width * height <= ORIGINAL_PIXEL_LIMIT, `${width}x${height} is over the limit`);
    assert.ok(width >= 3320 && width <= 3326, `width ${width}`);
    assert.ok(Math.abs(width / height - 4 / 3) < 0.01);
    assert.equal(result.meta?.original?.size, `${width}x${height}`);
  });

  it("keeps small images at their size and PNGs as PNG", async () => {
    const result = await processImage(await solidPng(50, 40), "image/png");
    assert.equal(result.file.contentType, "image/png");
    assert.equal(result.preview?.contentType, "image/png");
    assert.equal(result.meta?.original?.size, "50x40");
    assert.equal(result.meta?.small?.size, "50x40");
  });

  it("keeps an animated GIF animated when it stays an image", async () => {
    const result = await processImage(await animatedGif(60, 30), "image/gif");
    assert.equal(result.type, "image");
    assert.equal(result.file.contentType, "image/gif");
    const info = await sharp(result.file.bytes, { animated: true }).metadata();
    assert.equal(info.pages, 3);
    assert.equal(result.meta?.original?.size, "60x30");
    assert.equal(result.preview?.contentType, "image/png");
  });

  it("publishes a still GIF as PNG", async () => {
    const gif = await sharp(await solidPng(20, 10))
      .gif()
      .toBuffer();
    const result = await processImage(gif, "image/gif");
    assert.equal(result.file.contentType, "image/png");
  });

  it("refuses a truncated JPEG with a reason", async () => {
    await rejectsWith(processImage(await truncatedJpeg(), "image/jpeg"), /damaged or truncated/);
  });

  it("refuses a decompression bomb from its header, without decoding it", async () => {
    const bomb = pngBomb(30000, 30000);
    assert.ok(bomb.length < 2_000_000);
    const started = performance.now();
    await rejectsWith(processImage(bomb, "image/png"), /too large/);
    assert.ok(performance.now() - started < 2000, "refused without decoding 900 MP");
  });

  it("refuses bytes that are not an image at all", async () => {
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    await rejectsWith(processImage(html, "image/png"), /could not be read/);
  });
});
