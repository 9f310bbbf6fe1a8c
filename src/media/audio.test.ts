import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  ffmpegMake,
  flac,
  mp3WithTags,
  oggVorbis,
  requireFfmpeg,
  tagsOf,
  wav,
} from "../../test/helpers/media-files.ts";
import { processAudio } from "./audio.ts";
import { detectMediaType } from "./media-kind.ts";
import { MediaProcessingError } from "./processing-error.ts";

const tools = await requireFfmpeg();

describe("processAudio", () => {
  for (const [name, make, seconds] of [
    ["MP3", mp3WithTags, 2],
    ["Ogg Vorbis", oggVorbis, 1.5],
    ["WAV", wav, 1],
    ["FLAC", flac, 3],
  ] as const) {
    it(`publishes ${name} as MP3 with its duration`, async () => {
      const input = await make(seconds);
      const type = await detectMediaType(input);
      if (!type?.startsWith("audio/")) assert.fail(`detected ${type}`);
      const result = await processAudio(tools, input, type);
      assert.equal(result.type, "audio");
      assert.equal(result.file.contentType, "audio/mpeg");
      assert.equal(result.file.extension, "mp3");
      assert.equal(await detectMediaType(result.file.bytes), "audio/mpeg");
      const duration = result.meta?.duration ?? 0;
      assert.ok(Math.abs(duration - seconds) < 0.1, `duration ${duration}, expected ${seconds}`);
      assert.match(result.meta?.length ?? "", /^0:00:0\d\.\d\d$/);
      assert.equal(result.meta?.original?.duration, duration);
      assert.ok((result.meta?.original?.bitrate ?? 0) > 0, "the MP3's bitrate is reported");
      assert.equal(result.meta?.original?.width, undefined);
      assert.equal(result.preview, null, "no cover art, no preview");
      assert.equal(result.blurhash, null);
    });
  }

  it("drops ID3 tags", async () => {
    const input = await mp3WithTags(1);
    assert.equal((await tagsOf(input, "mp3")).artist, "Someone Private");
    const result = await processAudio(tools, input, "audio/mpeg");
    assert.equal((await tagsOf(result.file.bytes, "mp3")).artist, undefined);
  });

  it("turns embedded cover art into the preview", async () => {
    const cover = await ffmpegMake("png", [
      "-f",
      "lavfi",
      "-i",
      "color=c=red:size=300x300",
      "-frames:v",
      "1",
    ]);
    const dir = await mkdtemp(join(tmpdir(), "wren-cover-"));
    try {
      await writeFile(join(dir, "cover.png"), cover);
      const input = await ffmpegMake("mp3", [
        "-f",
        "lavfi",
        "-i",
        "sine=duration=1",
        "-i",
        join(dir, "cover.png"),
        "-map",
        "0:a",
        "-map",
        "1:v",
        "-c:a",
        "libmp3lame",
        "-c:v",
        "png",
        "-disposition:v",
        "attached_pic",
        "-id3v2_version",
        "3",
      ]);
      const result = await processAudio(tools, input, "audio/mpeg");
      assert.equal(result.preview?.contentType, "image/png");
      assert.equal(result.meta?.small?.size, "300x300");
      assert.equal(result.blurhash?.length, 36);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a file ffmpeg cannot read", async () => {
    const junk = new Uint8Array(2048).fill(7);
    await assert.rejects(processAudio(tools, junk, "audio/mpeg"), MediaProcessingError);
  });
});

describe("processAudio without ffmpeg", () => {
  it("publishes the file as uploaded", async () => {
    const bytes = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
    const result = await processAudio(null, bytes, "audio/mpeg");
    assert.equal(result.type, "audio");
    assert.equal(result.file.bytes, bytes);
    assert.equal(result.file.extension, "mp3");
    assert.equal(result.meta, null);
  });
});
