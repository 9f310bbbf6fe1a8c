// Audio (MP3, Ogg, WAV, FLAC, M4A): with ffmpeg, published as MP3 like Mastodon does, every tag
// dropped (ID3 tags can carry names, places and comments), cover art turned into the preview,
// and the duration read for `meta`. Without ffmpeg the file is published as uploaded: its type
// was already confirmed from its bytes.

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { extensionForContentType } from "./content-types.ts";
import {
  type Ffmpeg,
  inputArgs,
  type MediaInput,
  type Probe,
  probe,
  runFfmpeg,
  withTempDir,
} from "./ffmpeg.ts";
import { makePreview, SMALL_PIXEL_LIMIT } from "./preview.ts";
import {
  type EncodedFile,
  lengthOf,
  type ProcessedMedia,
  toUint8Array,
} from "./processed-media.ts";
import { MediaProcessingError, UNVERIFIED_TYPE } from "./processing-error.ts";

/** Published as uploaded, for machines without ffmpeg. */
export function asUploaded(
  input: Uint8Array,
  type: string,
  kind: ProcessedMedia["type"],
): ProcessedMedia {
  const file: EncodedFile = {
    bytes: input,
    contentType: type,
    extension: extensionForContentType(type) ?? "bin",
  };
  return { type: kind, file, preview: null, meta: null, blurhash: null };
}

/** Reads a probe of a file ffmpeg could not read as "not a valid audio or video file". */
export async function probeUpload(tools: Ffmpeg, input: MediaInput): Promise<Probe> {
  try {
    return await probe(tools, input);
  } catch {
    throw new MediaProcessingError(UNVERIFIED_TYPE);
  }
}

/** Transcodes the first audio stream of `source` (already probed) to a tag-free MP3. */
export async function transcodeAudio(
  tools: Ffmpeg,
  dir: string,
  source: MediaInput,
  facts: Probe,
): Promise<ProcessedMedia> {
  const audio = facts.streams.find((s) => s.codecType === "audio");
  if (!audio) throw new MediaProcessingError(UNVERIFIED_TYPE);
  const output = join(dir, "original.mp3");
  // An MP3 is copied as is (no generation loss); everything else becomes MP3 at VBR quality 2.
  const codec = audio.codec === "mp3" ? ["-c:a", "copy"] : ["-c:a", "libmp3lame", "-q:a", "2"];
  try {
    await runFfmpeg(tools, [
      ...inputArgs(source),
      "-map",
      "0:a:0",
      "-vn",
      "-map_metadata",
      "-1",
      "-map_chapters",
      "-1",
      ...codec,
      output,
    ]);
  } catch {
    throw new MediaProcessingError("The audio could not be read (the file is damaged)");
  }
  const result = await probeUpload(tools, { path: output, type: "audio/mpeg" });
  const duration = result.duration ?? facts.duration;
  const cover = await coverArt(tools, dir, source, facts);
  return {
    type: "audio",
    file: {
      bytes: toUint8Array(await readFile(output)),
      contentType: "audio/mpeg",
      extension: "mp3",
    },
    preview: cover?.file ?? null,
    meta: {
      ...(duration !== null ? { duration, length: lengthOf(duration) } : {}),
      // Mastodon also reports the audio's own timing under `original`.
      ...(duration !== null
        ? {
            original: {
              duration,
              ...(result.bitrate !== null ? { bitrate: result.bitrate } : {}),
            },
          }
        : {}),
      ...(cover ? { small: cover.small } : {}),
    },
    blurhash: cover?.blurhash ?? null,
  };
}

/** The embedded cover picture as a preview, when there is one that decodes. */
async function coverArt(tools: Ffmpeg, dir: string, source: MediaInput, facts: Probe) {
  const index = facts.streams
    .filter((s) => s.codecType === "video")
    .findIndex((s) => s.attachedPicture);
  if (index < 0) return null;
  const path = join(dir, "cover.png");
  try {
    await runFfmpeg(tools, [
      ...inputArgs(source),
      "-map",
      `0:v:${index}`,
      "-frames:v",
      "1",
      "-c:v",
      "png",
      path,
    ]);
    return await makePreview(toUint8Array(await readFile(path)), "png", {
      area: SMALL_PIXEL_LIMIT,
    });
  } catch {
    // A broken cover does not make the sound unusable: publish it without a preview.
    return null;
  }
}

export async function processAudio(
  tools: Ffmpeg | null,
  input: Uint8Array,
  type: string,
): Promise<ProcessedMedia> {
  if (!tools) return asUploaded(input, type, "audio");
  return withTempDir(async (dir) => {
    const source = { path: join(dir, `source.${extensionForContentType(type) ?? "bin"}`), type };
    await writeFile(source.path, input);
    return transcodeAudio(tools, dir, source, await probeUpload(tools, source));
  });
}
