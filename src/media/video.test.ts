import assert from "node:assert/strict";
import { describe, it } from "node:test";
import sharp from "sharp";
import { animatedGif, solidPng } from "../../test/helpers/images.ts";
import {
  ffmpegMake,
  mp4WithSound,
  requireFfmpeg,
  silentWebm,
  tagsOf,
} from "../../test/helpers/media-files.ts";
import { processFile } from "./pipeline.ts";
import { MediaProcessingError } from "./processing-error.ts";
import { processVideo } from "./video.ts";

const tools = await requireFfmpeg();

describe("processVideo", () => {
  it("publishes an MP4 with sound as a video, tags dropped, with meta and a first-frame preview", async () => {
    const input = await mp4WithSound("320x240", 25, 1);
    assert.equal((await tagsOf(input, "mp4")).title, "Secret holiday", "the fixture has tags");

    const result = await processVideo(tools, input, "video/mp4");

    assert.equal(result.type, "video");
    assert.equal(result.file.contentType, "video/mp4");
    const tags = await tagsOf(result.file.bytes, "mp4");
    assert.equal(tags.title, undefined);
    assert.equal(tags.location, undefined);
    const original = result.meta?.original;
    assert.equal(original?.width, 320);
    assert.equal(original?.height, 240);
    assert.equal(original?.frame_rate, "25/1");
    assert.ok(Math.abs((original?.duration ?? 0) - 1) < 0.15, `duration ${original?.duration}`);
    assert.ok((original?.bitrate ?? 0) > 0);
    assert.equal(result.meta?.length?.startsWith("0:00:01"), true);
    assert.equal(result.preview?.contentType, "image/png");
    const frame = await sharp(result.preview!.bytes).metadata();
    assert.equal(frame.width, 320);
    assert.equal(frame.height, 240);
    assert.equal(result.meta?.small?.size, "320x240");
    assert.equal(result.blurhash?.length, 36);
  });

  it("scales the preview frame into 640×640", async () => {
    const result = await processVideo(tools, await mp4WithSound("1280x720", 10, 0.3), "video/mp4");
    assert.equal(result.meta?.original?.size, "1280x720");
    assert.equal(result.meta?.small?.size, "640x360");
  });

  it("transcodes a silent WebM to MP4 and calls it gifv", async () => {
    const result = await processVideo(tools, await silentWebm("160x120", 10, 1), "video/webm");
    assert.equal(result.type, "gifv");
    assert.equal(result.file.extension, "mp4");
    assert.equal(result.meta?.original?.size, "160x120");
    assert.equal(result.meta?.original?.frame_rate, "10/1");
  });

  it("turns an animated GIF into a gifv MP4 when ffmpeg is there", async () => {
    const result = await processFile(tools, await animatedGif(60, 30), "image/gif");
    assert.equal(result.type, "gifv");
    assert.equal(result.file.contentType, "video/mp4");
    assert.equal(result.meta?.original?.size, "60x30");
    assert.ok(result.preview);
  });

  it("refuses frames above 3840×2160 and frame rates above 120 with Mastodon's words", async () => {
    const huge = await ffmpegMake("mp4", [
      "-f",
      "lavfi",
      "-i",
      "color=c=black:size=4096x2200:rate=1:duration=1",
      "-c:v",
      "libx264",
      "-pix_fmt",
      "yuv420p",
      "-preset",
      "ultrafast",
    ]);
    await assert.rejects(processVideo(tools, huge, "video/mp4"), (error: unknown) => {
      assert.ok(error instanceof MediaProcessingError);
      assert.equal(error.reason, "4096x2200 videos are not supported");
      return true;
    });
    const fast = await ffmpegMake("mp4", [
      "-f",
      "lavfi",
      "-i",
      "testsrc=size=64x48:rate=240:duration=0.2",
      "-c:v",
      "libx264",
      "-pix_fmt",
      "yuv420p",
    ]);
    await assert.rejects(processVideo(tools, fast, "video/mp4"), /240fps videos are not supported/);
  });

  it("refuses a truncated video and HTML claiming to be a video", async () => {
    const whole = await mp4WithSound("320x240", 25, 1);
    const truncated = whole.subarray(0, 600);
    await assert.rejects(processVideo(tools, truncated, "video/mp4"), MediaProcessingError);
    const html = new TextEncoder().encode("<html><body>not a video</body></html>");
    await assert.rejects(processVideo(tools, html, "video/mp4"), /could not be verified/);
  });
});

describe("processFile without ffmpeg", () => {
  it("publishes video as uploaded and keeps animated GIFs as images", async () => {
    const bytes = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112]);
    const video = await processFile(null, bytes, "video/mp4");
    assert.equal(video.type, "video");
    assert.equal(video.file.bytes, bytes);
    assert.equal(video.file.extension, "mp4");
    assert.equal(video.meta, null);
    const gif = await processFile(null, await animatedGif(), "image/gif");
    assert.equal(gif.type, "image");
    assert.equal(gif.file.contentType, "image/gif");
  });
});

describe("processFile concurrency", () => {
  it("processes many files given at once and answers each", async () => {
    const inputs = await Promise.all(Array.from({ length: 12 }, (_, i) => solidPng(10 + i, 10)));
    const results = await Promise.all(inputs.map((input) => processFile(null, input, "image/png")));
    assert.deepEqual(
      results.map((r) => r.meta?.original?.width),
      inputs.map((_, i) => 10 + i),
    );
  });
});
