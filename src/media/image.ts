// Still and animated images (JPEG, PNG, WebP, AVIF, and GIFs when ffmpeg is missing): decoded
// with a pixel limit (refusing decompression bombs before any pixel is decoded), turned upright
// by their EXIF orientation, stripped of every metadata block (sharp writes no EXIF, XMP or GPS
// unless asked), capped at Mastodon's 3840×2160-pixel area, and given a `small` preview.

import sharp, { type Sharp } from "sharp";
import { IMAGE_MATRIX_LIMIT } from "./limits.ts";
import { makePreview, type PreviewFormat, SMALL_PIXEL_LIMIT } from "./preview.ts";
import {
  dimensions,
  type EncodedFile,
  fitToArea,
  type ProcessedMedia,
  toUint8Array,
} from "./processed-media.ts";
import { MediaProcessingError } from "./processing-error.ts";

/** Largest published original, width × height (3840 × 2160, Mastodon's `original` style). */
export const ORIGINAL_PIXEL_LIMIT = 8_294_400;

type OutputFormat = PreviewFormat | "gif";

const TOO_LARGE = `The image is too large (at most ${IMAGE_MATRIX_LIMIT} pixels)`;
const DAMAGED = "The image could not be read (the file is damaged or truncated)";

/** Turns decoder failures into a reason for the uploader; anything else passes through. */
function readable(error: unknown): unknown {
  if (error instanceof MediaProcessingError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MediaProcessingError(/pixel limit/i.test(message) ? TOO_LARGE : DAMAGED);
}

function outputFormat(type: string, hasAlpha: boolean, animated: boolean): OutputFormat {
  switch (type) {
    case "image/jpeg":
      return "jpeg";
    case "image/webp":
      return "webp";
    case "image/gif":
      return animated ? "gif" : "png";
    case "image/avif":
      // Not every client shows AVIF; like Mastodon, publish it as JPEG (PNG when transparent).
      return hasAlpha ? "png" : "jpeg";
    default:
      return "png";
  }
}

async function encode(pipeline: Sharp, format: OutputFormat): Promise<EncodedFile> {
  // Quality 90 is Mastodon's setting for re-encoded images.
  const encoded =
    format === "jpeg"
      ? pipeline.jpeg({ quality: 90 })
      : format === "png"
        ? pipeline.png()
        : format === "webp"
          ? pipeline.webp({ quality: 90 })
          : pipeline.gif();
  const bytes = toUint8Array(await encoded.toBuffer());
  const contentType = format === "jpeg" ? "image/jpeg" : `image/${format}`;
  return { bytes, contentType, extension: format === "jpeg" ? "jpg" : format };
}

/**
 * Processes an image whose type was detected from its bytes. Throws MediaProcessingError when
 * the file is damaged, truncated or too large to decode.
 */
export async function processImage(input: Uint8Array, type: string): Promise<ProcessedMedia> {
  // failOn "warning": a truncated or corrupt file is refused instead of published half grey.
  const decode = { limitInputPixels: IMAGE_MATRIX_LIMIT, failOn: "warning" as const };
  try {
    const info = await sharp(input, decode).metadata();
    const frameHeight = info.pageHeight ?? info.height ?? 0;
    if (!info.width || !frameHeight) throw new MediaProcessingError(DAMAGED);
    // Checked from the header, before decoding: a bomb is refused without allocating its pixels.
    if (info.width * frameHeight > IMAGE_MATRIX_LIMIT) throw new MediaProcessingError(TOO_LARGE);

    const animated = (info.pages ?? 1) > 1 && (type === "image/webp" || type === "image/gif");
    const format = outputFormat(type, info.hasAlpha ?? false, animated);
    // Orientations 5–8 swap the sides once the image is turned upright.
    const upright =
      (info.orientation ?? 1) >= 5
        ? { width: frameHeight, height: info.width }
        : { width: info.width, height: frameHeight };
    const target = fitToArea(upright.width, upright.height, ORIGINAL_PIXEL_LIMIT);

    const pipeline = animated
      ? sharp(input, { ...decode, animated: true })
      : sharp(input, decode).rotate();
    const file = await encode(
      pipeline.resize({ width: target.width, height: target.height, fit: "inside" }),
      format,
    );

    const out = await sharp(file.bytes, { limitInputPixels: IMAGE_MATRIX_LIMIT }).metadata();
    const original = dimensions(out.width ?? 0, out.pageHeight ?? out.height ?? 0);
    const preview = await makePreview(file.bytes, format === "gif" ? "png" : format, {
      area: SMALL_PIXEL_LIMIT,
    });
    return {
      type: "image",
      file,
      preview: preview.file,
      meta: { original, small: preview.small },
      blurhash: preview.blurhash,
    };
  } catch (error) {
    throw readable(error);
  }
}
