// Custom emoji images, checked the way Mastodon checks them: PNG, GIF or WebP by content (never
// by file name), at most 256 KB. The original is kept as uploaded (so animations play), once it
// has decoded cleanly; a PNG of its first frame serves `static_url`, as Mastodon's "static"
// style does. Every way a file can be bad is a 422 that names the problem.

import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { type AppError, unprocessable } from "../domain/errors.ts";
import { EMOJI_MAX_BYTES } from "./emoji-limits.ts";
import { type EncodedImage, humanSize } from "./profile-images.ts";

/** Emoji are drawn at text size; a larger canvas than this is a bomb, not an emoji. */
export const EMOJI_PIXEL_LIMIT = 4096 * 4096;

const ACCEPTED: Record<string, string> = {
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

export interface ProcessedEmojiImage {
  original: EncodedImage;
  /** The first frame as PNG. */
  still: EncodedImage;
}

function invalid(problem: string): AppError {
  return unprocessable(`Validation failed: Image ${problem}`);
}

export async function processEmojiImage(input: Uint8Array): Promise<ProcessedEmojiImage> {
  if (input.byteLength === 0) throw invalid("file is empty");
  if (input.byteLength > EMOJI_MAX_BYTES) {
    throw invalid(`file size must be less than ${humanSize(EMOJI_MAX_BYTES)}`);
  }
  const detected = await fileTypeFromBuffer(input).catch(() => undefined);
  const extension = detected ? ACCEPTED[detected.mime] : undefined;
  if (!detected || !extension) {
    throw invalid("content type is invalid (accepted: PNG, GIF and WebP images)");
  }
  const base = { limitInputPixels: EMOJI_PIXEL_LIMIT, failOn: "warning" as const };
  try {
    // Decoding every frame proves the whole file is an image, not just its first bytes.
    await sharp(input, { ...base, animated: true })
      .raw()
      .toBuffer();
    const still = await sharp(input, base).png({ compressionLevel: 9 }).toBuffer();
    return {
      original: { bytes: input, contentType: detected.mime, extension },
      still: {
        bytes: new Uint8Array(still.buffer, still.byteOffset, still.byteLength),
        contentType: "image/png",
        extension: "png",
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw invalid(`dimensions are too large (at most ${EMOJI_PIXEL_LIMIT} pixels)`);
    }
    throw invalid("could not be read as an image (the file is damaged or truncated)");
  }
}
