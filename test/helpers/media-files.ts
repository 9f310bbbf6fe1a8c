// Video and audio files for media tests, made at test time by ffmpeg's own generators (a test
// pattern and a sine tone), a second or less each, with the ffmpeg Wren itself would use (the
// npm-shipped one on a machine without a system ffmpeg). No test skips for want of ffmpeg:
// `npm install` brings it, so a missing one is a failure to see.

import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Ffmpeg, lookUpFfmpeg } from "../../src/media/ffmpeg.ts";

const run = promisify(execFile);

/** ffmpeg and ffprobe as Wren finds them without settings; throws, saying why, if it cannot. */
export async function requireFfmpeg(): Promise<Ffmpeg> {
  const { tools, report } = await lookUpFfmpeg({ searchPath: process.env.PATH });
  if (!tools) throw new Error(`media tests need ffmpeg: ${report.join("; ")}`);
  return tools;
}

/** Runs ffmpeg with `args` (inputs and options, no output) and returns the file it wrote. */
export async function ffmpegMake(extension: string, args: string[]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "wren-media-fixture-"));
  try {
    const output = join(dir, `out.${extension}`);
    await run((await requireFfmpeg()).ffmpeg, [
      "-nostdin",
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      ...args,
      output,
    ]);
    return await readFile(output);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const pattern = (size: string, rate: number, seconds: number) => [
  "-f",
  "lavfi",
  "-i",
  `testsrc=size=${size}:rate=${rate}:duration=${seconds}`,
];
const tone = (seconds: number) => ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`];

/** H.264 + AAC in MP4 with a GPS position and a title in its tags (which must not survive). */
export function mp4WithSound(size = "320x240", rate = 25, seconds = 1): Promise<Buffer> {
  return ffmpegMake("mp4", [
    ...pattern(size, rate, seconds),
    ...tone(seconds),
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    "-shortest",
    "-metadata",
    "location=+48.8577+002.2950/",
    "-metadata",
    "title=Secret holiday",
  ]);
}

/** VP8 in WebM without sound (a gifv once processed). */
export function silentWebm(size = "160x120", rate = 10, seconds = 1): Promise<Buffer> {
  return ffmpegMake("webm", [...pattern(size, rate, seconds), "-c:v", "libvpx", "-b:v", "200k"]);
}

export function mp3WithTags(seconds = 1): Promise<Buffer> {
  return ffmpegMake("mp3", [
    ...tone(seconds),
    "-c:a",
    "libmp3lame",
    "-metadata",
    "artist=Someone Private",
  ]);
}

export function oggVorbis(seconds = 1): Promise<Buffer> {
  return ffmpegMake("ogg", [...tone(seconds), "-c:a", "libvorbis"]);
}

export function wav(seconds = 1): Promise<Buffer> {
  return ffmpegMake("wav", tone(seconds));
}

export function flac(seconds = 1): Promise<Buffer> {
  return ffmpegMake("flac", tone(seconds));
}

/** Container and stream tags of a file, as ffprobe reports them (lower-cased keys). */
export async function tagsOf(
  bytes: Uint8Array,
  extension: string,
): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), "wren-media-probe-"));
  try {
    const path = join(dir, `file.${extension}`);
    await writeFile(path, bytes);
    const { stdout } = await run((await requireFfmpeg()).ffprobe, [
      "-v",
      "error",
      "-print_format",
      "json",
      "-show_format",
      "-show_streams",
      path,
    ]);
    const parsed = JSON.parse(stdout) as {
      format?: { tags?: Record<string, string> };
      streams?: { tags?: Record<string, string> }[];
    };
    const tags: Record<string, string> = {};
    for (const source of [parsed.format?.tags, ...(parsed.streams ?? []).map((s) => s.tags)]) {
      for (const [key, value] of Object.entries(source ?? {})) tags[key.toLowerCase()] = value;
    }
    return tags;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
