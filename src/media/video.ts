// Video (MP4, WebM, QuickTime) and animated GIFs, with ffmpeg: checked against Mastodon's frame
// size and frame rate limits, published as MP4 (H.264 already in MP4 is copied without
// re-encoding; anything else is transcoded), with every metadata tag dropped (phones write GPS
// positions into videos), a first-frame preview, and meta from the published file. A video with
// no sound is a `gifv`, as in Mastodon; a file with only sound is handed to the audio pipeline.

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { probeUpload, transcodeAudio } from "./audio.ts";
import { extensionForContentType } from "./content-types.ts";
import {
  type Ffmpeg,
  frameRateValue,
  inputArgs,
  type ProbedStream,
  probe,
  runFfmpeg,
  withTempDir,
} from "./ffmpeg.ts";
import { VIDEO_FRAME_RATE_LIMIT, VIDEO_MATRIX_LIMIT } from "./limits.ts";
import { makePreview, VIDEO_PREVIEW_BOX } from "./preview.ts";
import { dimensions, lengthOf, type ProcessedMedia, toUint8Array } from "./processed-media.ts";
import { MediaProcessingError, PROCESSING_FAILED, UNVERIFIED_TYPE } from "./processing-error.ts";

/** Width and height as shown: a phone video turned by 90° plays with its sides swapped. */
function shownSize(stream: ProbedStream): { width: number; height: number } {
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  return Math.abs(stream.rotation) % 180 === 90
    ? { width: height, height: width }
    : { width, height };
}

function checkLimits(stream: ProbedStream): void {
  const { width, height } = shownSize(stream);
  if (!width || !height) throw new MediaProcessingError(UNVERIFIED_TYPE);
  // Mastodon's wording for both refusals.
  if (width * height > VIDEO_MATRIX_LIMIT) {
    throw new MediaProcessingError(`${width}x${height} videos are not supported`);
  }
  const fps = frameRateValue(stream.frameRate);
  if (fps > VIDEO_FRAME_RATE_LIMIT) {
    throw new MediaProcessingError(`${Math.floor(fps)}fps videos are not supported`);
  }
}

/** H.264 in yuv420p with AAC (or no) sound inside MP4 plays everywhere: copy, don't re-encode. */
function canCopy(type: string, video: ProbedStream, audio: ProbedStream | undefined): boolean {
  return (
    type === "video/mp4" &&
    video.codec === "h264" &&
    video.pixelFormat === "yuv420p" &&
    (!audio || audio.codec === "aac")
  );
}

function encodeArgs(copy: boolean, withSound: boolean): string[] {
  const common = ["-map_metadata", "-1", "-map_chapters", "-1", "-movflags", "+faststart"];
  if (copy) return ["-c", "copy", ...common];
  return [
    // Even sides (H.264 with yuv420p needs them) and a constant frame rate, as Mastodon does.
    "-vf",
    "scale=trunc(iw/2)*2:trunc(ih/2)*2",
    "-vsync",
    "cfr",
    "-pix_fmt",
    "yuv420p",
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    ...(withSound ? ["-c:a", "aac", "-b:a", "192k"] : []),
    ...common,
  ];
}

/** Processes a video or animated GIF; throws MediaProcessingError for unusable files. */
export async function processVideo(
  tools: Ffmpeg,
  input: Uint8Array,
  type: string,
): Promise<ProcessedMedia> {
  return withTempDir(async (dir) => {
    const source = { path: join(dir, `source.${extensionForContentType(type) ?? "bin"}`), type };
    await writeFile(source.path, input);
    const facts = await probeUpload(tools, source);
    const video = facts.streams.find((s) => s.codecType === "video" && !s.attachedPicture);
    const audio =
      type === "image/gif" ? undefined : facts.streams.find((s) => s.codecType === "audio");
    if (!video) {
      if (audio) return transcodeAudio(tools, dir, source, facts);
      throw new MediaProcessingError(UNVERIFIED_TYPE);
    }
    checkLimits(video);

    const output = { path: join(dir, "original.mp4"), type: "video/mp4" };
    const frame = join(dir, "frame.png");
    const maps = ["-map", "0:v:0", ...(audio ? ["-map", "0:a:0"] : [])];
    try {
      await runFfmpeg(tools, [
        ...inputArgs(source),
        ...maps,
        ...encodeArgs(canCopy(type, video, audio), !!audio),
        output.path,
      ]);
      await runFfmpeg(tools, [
        ...inputArgs(output),
        "-map",
        "0:v:0",
        "-frames:v",
        "1",
        "-vf",
        `scale='min(${VIDEO_PREVIEW_BOX},iw)':'min(${VIDEO_PREVIEW_BOX},ih)':force_original_aspect_ratio=decrease`,
        "-c:v",
        "png",
        frame,
      ]);
    } catch {
      throw new MediaProcessingError(PROCESSING_FAILED);
    }

    const published = await probe(tools, output).catch(() => {
      throw new MediaProcessingError(PROCESSING_FAILED);
    });
    const stream = published.streams.find((s) => s.codecType === "video") ?? video;
    const { width, height } = shownSize(stream);
    const duration = published.duration ?? facts.duration ?? 0;
    const preview = await makePreview(toUint8Array(await readFile(frame)), "png", {
      box: VIDEO_PREVIEW_BOX,
    });
    return {
      type: audio ? "video" : "gifv",
      file: {
        bytes: toUint8Array(await readFile(output.path)),
        contentType: "video/mp4",
        extension: "mp4",
      },
      preview: preview.file,
      meta: {
        original: {
          ...dimensions(width, height),
          frame_rate: stream.frameRate ?? "0/1",
          duration,
          bitrate: published.bitrate ?? 0,
        },
        small: preview.small,
        duration,
        length: lengthOf(duration),
      },
      blurhash: preview.blurhash,
    };
  });
}
