// A preview image the client uploads for an attachment (`thumbnail`, mostly cover art for audio
// and a chosen frame for video). Checked by content like any upload, auto-oriented, stripped of
// metadata (sharp writes none unless asked) and scaled to fit the preview size. Every way it can
// be bad is a 422 naming the Thumbnail field, as Mastodon's validation messages do.

import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { AppError, unprocessable } from "../domain/errors.ts";
import { blurhashOf } from "./blurhash.ts";
import { IMAGE_MATRIX_LIMIT, PROFILE_IMAGE_TYPES } from "./limits.ts";
import { humanSize } from "./profile-images.ts";

/** Previews fit inside this box, the size of generated previews. */
export const PREVIEW_BOX = 640;

export interface CustomThumbnail {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
  width: number;
  height: number;
  /** Clients paint it while the preview loads, so it follows the preview. */
  blurhash: string;
}

const ACCEPTED: ReadonlySet<string> = new Set(PROFILE_IMAGE_TYPES);

const invalid = (problem: string) => unprocessable(`Validation failed: Thumbnail ${problem}`);

export async function processCustomThumbnail(
  input: Uint8Array,
  options: { maxBytes: number },
): Promise<CustomThumbnail> {
  if (input.byteLength === 0) throw invalid("can't be blank");
  if (input.byteLength > options.maxBytes) {
    throw invalid(`file size must be less than ${humanSize(options.maxBytes)}`);
  }
  const detected = await fileTypeFromBuffer(input).catch(() => undefined);
  if (!detected || !ACCEPTED.has(detected.mime)) throw invalid("content type is invalid");
  try {
    // failOn "warning": a truncated image is an error, not a grey half-picture.
    const pipeline = sharp(input, { limitInputPixels: IMAGE_MATRIX_LIMIT, failOn: "warning" })
      .rotate()
      .resize(PREVIEW_BOX, PREVIEW_BOX, { fit: "inside", withoutEnlargement: true });
    // JPEG stays JPEG (photos); everything else becomes PNG, which keeps transparency.
    const jpeg = detected.mime === "image/jpeg";
    const { data, info } = await (jpeg
      ? pipeline.jpeg({ quality: 85, mozjpeg: true })
      : pipeline.png()
    ).toBuffer({ resolveWithObject: true });
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return {
      bytes,
      contentType: jpeg ? "image/jpeg" : "image/png",
      extension: jpeg ? "jpg" : "png",
      width: info.width,
      height: info.height,
      blurhash: await blurhashOf(bytes),
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) throw invalid("dimensions are too large");
    throw invalid("could not be read as an image");
  }
}
