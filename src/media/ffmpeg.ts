// ffmpeg and ffprobe, run as child processes on files in a private temporary folder. `npm install`
// brings a static build of each (see ffmpeg-location.ts for the order of places looked in); if
// neither that nor a system one runs, video and audio are published as uploaded (type still
// checked from the bytes), animated GIFs stay images, and the server says so at start.
// Every run has a time limit so a hostile file cannot hold a job forever, and its arguments are
// passed as an array (no shell).

import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FfmpegSettings, locateTool } from "./ffmpeg-location.ts";

export interface Ffmpeg {
  ffmpeg: string;
  ffprobe: string;
}

export interface ProbedStream {
  codecType: "video" | "audio" | "other";
  codec: string | null;
  width: number | null;
  height: number | null;
  /** "30/1", as ffprobe (and Mastodon's meta) writes it. */
  frameRate: string | null;
  pixelFormat: string | null;
  /** Cover art inside an audio file, not a moving picture. */
  attachedPicture: boolean;
  /** Degrees the player turns the picture (phone videos), from the display matrix. */
  rotation: number;
}

export interface Probe {
  formatName: string;
  duration: number | null;
  bitrate: number | null;
  streams: ProbedStream[];
}

const PROBE_TIMEOUT_MS = 30_000;
/** Longest transcode; generous for a 99 MiB video on a small machine. */
export const TRANSCODE_TIMEOUT_MS = 15 * 60_000;

function run(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const detail = String(stderr).trim().split("\n").slice(-3).join(" ");
          reject(new Error(`${command} failed: ${detail || error.message}`));
        } else {
          resolve(String(stdout));
        }
      },
    );
  });
}

export interface FfmpegLookup {
  /** Both tools, or null when either is missing (both are needed for any processing). */
  tools: Ffmpeg | null;
  /** One line per tool: where it was found, or everything tried and why it failed. */
  report: string[];
}

/** Lookups per setting pair: done once per process, not once per upload. */
const lookups = new Map<string, Promise<FfmpegLookup>>();

/** ffmpeg and ffprobe, by the order in ffmpeg-location.ts. */
export function lookUpFfmpeg(settings: FfmpegSettings = {}): Promise<FfmpegLookup> {
  const key = JSON.stringify([
    settings.ffmpegPath ?? null,
    settings.ffprobePath ?? null,
    settings.searchPath ?? "",
  ]);
  let lookup = lookups.get(key);
  if (!lookup) {
    const options = { settings, searchPath: settings.searchPath ?? "" };
    lookup = Promise.all([locateTool("ffmpeg", options), locateTool("ffprobe", options)]).then(
      ([ffmpeg, ffprobe]) => ({
        tools:
          ffmpeg.found && ffprobe.found ? { ffmpeg: ffmpeg.path, ffprobe: ffprobe.path } : null,
        report: [ffmpeg, ffprobe].map((tool, i) =>
          tool.found
            ? `${i === 0 ? "ffmpeg" : "ffprobe"}: ${tool.path} (from ${SOURCE_NAMES[tool.source]})`
            : tool.problem,
        ),
      }),
    );
    lookups.set(key, lookup);
  }
  return lookup;
}

const SOURCE_NAMES = { setting: "the setting", PATH: "PATH", npm: "the npm package" } as const;

/** The tools alone, or null when media are to be published without ffmpeg. */
export async function findFfmpeg(settings: FfmpegSettings = {}): Promise<Ffmpeg | null> {
  return (await lookUpFfmpeg(settings)).tools;
}

/** Runs ffmpeg quietly, never reading stdin and never overwriting a prompt away. */
export async function runFfmpeg(
  tools: Ffmpeg,
  args: string[],
  timeoutMs = TRANSCODE_TIMEOUT_MS,
): Promise<void> {
  await run(
    tools.ffmpeg,
    ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", ...args],
    timeoutMs,
  );
}

const num = (value: unknown): number | null => {
  const n = typeof value === "string" || typeof value === "number" ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

function rotationOf(stream: Record<string, unknown>): number {
  const sideData = Array.isArray(stream.side_data_list) ? stream.side_data_list : [];
  for (const entry of sideData as Record<string, unknown>[]) {
    const rotation = num(entry.rotation);
    if (rotation !== null) return rotation;
  }
  const tags = (stream.tags ?? {}) as Record<string, unknown>;
  return num(tags.rotate) ?? 0;
}

function streamOf(raw: Record<string, unknown>): ProbedStream {
  const type = raw.codec_type;
  const disposition = (raw.disposition ?? {}) as Record<string, unknown>;
  const rate = str(raw.avg_frame_rate);
  return {
    codecType: type === "video" || type === "audio" ? type : "other",
    codec: str(raw.codec_name),
    width: num(raw.width),
    height: num(raw.height),
    // avg_frame_rate is "0/0" when unknown; fall back to the container's base rate.
    frameRate: rate && rate !== "0/0" ? rate : str(raw.r_frame_rate),
    pixelFormat: str(raw.pix_fmt),
    attachedPicture: disposition.attached_pic === 1,
    rotation: rotationOf(raw),
  };
}

/** A file for ffmpeg to read, with the media type detected from its bytes. */
export interface MediaInput {
  path: string;
  type: string;
}

// The demuxer is named from the detected type instead of letting ffmpeg guess: a file crafted to
// look like a playlist or a concat list could otherwise make ffmpeg open other files or URLs.
const DEMUXERS: Record<string, string> = {
  "video/mp4": "mov",
  "video/quicktime": "mov",
  "audio/mp4": "mov",
  "video/webm": "matroska",
  "image/gif": "gif",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/wav": "wav",
  "audio/flac": "flac",
};

/** Input options: only local files, through the demuxer of the detected type. */
function inputOptions(input: MediaInput): string[] {
  const demuxer = DEMUXERS[input.type];
  return ["-protocol_whitelist", "file", ...(demuxer ? ["-f", demuxer] : [])];
}

/** `-i` with its options, for runFfmpeg. */
export function inputArgs(input: MediaInput): string[] {
  return [...inputOptions(input), "-i", input.path];
}

/** Reads container and stream facts; throws when ffprobe cannot make sense of the file. */
export async function probe(tools: Ffmpeg, input: MediaInput): Promise<Probe> {
  const output = await run(
    tools.ffprobe,
    [
      "-v",
      "error",
      "-print_format",
      "json",
      "-show_format",
      "-show_streams",
      ...inputOptions(input),
      input.path,
    ],
    PROBE_TIMEOUT_MS,
  );
  const parsed = JSON.parse(output) as {
    format?: Record<string, unknown>;
    streams?: Record<string, unknown>[];
  };
  const format = parsed.format ?? {};
  return {
    formatName: str(format.format_name) ?? "",
    duration: num(format.duration),
    bitrate: num(format.bit_rate),
    streams: (parsed.streams ?? []).map(streamOf),
  };
}

/** A frame rate like "30000/1001" as a number (0 when unreadable). */
export function frameRateValue(rate: string | null): number {
  if (!rate) return 0;
  const [n, d = "1"] = rate.split("/");
  const value = Number(n) / Number(d);
  return Number.isFinite(value) ? value : 0;
}

/** Runs `work` with a private temporary folder that is removed afterwards, whatever happens. */
export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "wren-media-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
