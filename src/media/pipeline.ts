// Routes an upload to its pipeline by the type detected from its bytes: images through sharp,
// video and audio through ffmpeg when it is installed, animated GIFs to MP4 (`gifv`) like
// Mastodon when ffmpeg is there, and otherwise kept as images. Only a few files are processed at
// once: the job runner starts every due job together, and one decoded 33-megapixel image or one
// transcode can take hundreds of megabytes and a whole core.

import { availableParallelism } from "node:os";
import sharp from "sharp";
import { asUploaded, processAudio } from "./audio.ts";
import type { Ffmpeg } from "./ffmpeg.ts";
import { processImage } from "./image.ts";
import { IMAGE_MATRIX_LIMIT } from "./limits.ts";
import { mediaKindOf } from "./media-kind.ts";
import type { ProcessedMedia } from "./processed-media.ts";
import { processVideo } from "./video.ts";

/** An animated GIF within the image pixel limit (anything else goes to the image checks). */
async function isAnimatedGif(input: Uint8Array): Promise<boolean> {
  try {
    const info = await sharp(input, { limitInputPixels: IMAGE_MATRIX_LIMIT }).metadata();
    const frame = (info.width ?? 0) * (info.pageHeight ?? info.height ?? 0);
    return (info.pages ?? 1) > 1 && frame > 0 && frame <= IMAGE_MATRIX_LIMIT;
  } catch {
    return false;
  }
}

const MAX_AT_ONCE = Math.max(1, Math.min(availableParallelism(), 4));
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter (the count stays), or free it.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/**
 * Processes bytes whose supported media type was detected from their content. Throws
 * MediaProcessingError when the file is unusable; other errors are passing troubles.
 */
export function processFile(
  tools: Ffmpeg | null,
  input: Uint8Array,
  type: string,
): Promise<ProcessedMedia> {
  return limited(() => route(tools, input, type));
}

async function route(
  tools: Ffmpeg | null,
  input: Uint8Array,
  type: string,
): Promise<ProcessedMedia> {
  switch (mediaKindOf(type)) {
    case "image":
      return processImage(input, type);
    case "gif":
      return tools && (await isAnimatedGif(input))
        ? processVideo(tools, input, type)
        : processImage(input, type);
    case "video":
      return tools ? processVideo(tools, input, type) : asUploaded(input, type, "video");
    case "audio":
      return processAudio(tools, input, type);
  }
}
