// Avatars and headers: validated by their content (never by the client's MIME type or file
// name), auto-oriented, stripped of metadata (sharp writes no EXIF/XMP/ICC unless asked to, so
// camera data and GPS positions are dropped), and cropped to Mastodon's sizes. Animated GIF and
// WebP images stay animated and get a static first-frame PNG for `avatar_static`/`header_static`.
// Every way an upload can be bad (too big, not an image, damaged, a decompression bomb) is a 422.

import { randomBytes } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import sharp, { type Sharp } from "sharp";
import type { ImageRef } from "../domain/account.ts";
import { AppError, unprocessable } from "../domain/errors.ts";
import type { FileHost } from "./file-host.ts";
import { IMAGE_MATRIX_LIMIT, PROFILE_IMAGE_TYPES } from "./limits.ts";

export type ProfileImageKind = "avatar" | "header";

/** Mastodon's sizes: avatars are cropped to 400×400, headers to 1500×500. */
export const PROFILE_IMAGE_SIZES: Record<ProfileImageKind, { width: number; height: number }> = {
  avatar: { width: 400, height: 400 },
  header: { width: 1500, height: 500 },
};

export interface EncodedImage {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
}

export interface ProcessedProfileImage {
  kind: ProfileImageKind;
  original: EncodedImage;
  /** A still first frame when the original is animated; null when the original is static. */
  still: EncodedImage | null;
}

const LABEL: Record<ProfileImageKind, string> = { avatar: "Avatar", header: "Header" };
const ACCEPTED: ReadonlySet<string> = new Set(PROFILE_IMAGE_TYPES);

/** `16 MB`, `2 MB`, `512 KB`: the way Rails' number_to_human_size words the limit. */
export function humanSize(bytes: number): string {
  const units = ["Bytes", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded} ${units[unit]}`;
}

function invalid(kind: ProfileImageKind, problem: string): AppError {
  return unprocessable(`Validation failed: ${LABEL[kind]} ${problem}`, {
    details: { [kind]: [{ error: "ERR_INVALID", description: problem }] },
  });
}

/** What to encode the processed image as, given the detected input type. */
function outputFormat(type: string, animated: boolean): "jpeg" | "png" | "gif" | "webp" {
  switch (type) {
    case "image/jpeg":
      return "jpeg";
    case "image/gif":
      return animated ? "gif" : "png";
    case "image/webp":
    case "image/avif":
      // AVIF is re-encoded as WebP: every current client shows WebP, not all show AVIF.
      return "webp";
    default:
      return "png";
  }
}

const CONTENT_TYPE = { jpeg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp" };
const EXTENSION = { jpeg: "jpg", png: "png", gif: "gif", webp: "webp" };

async function encode(
  pipeline: Sharp,
  format: "jpeg" | "png" | "gif" | "webp",
): Promise<EncodedImage> {
  const encoded =
    format === "jpeg"
      ? pipeline.jpeg({ quality: 85, mozjpeg: true })
      : format === "png"
        ? pipeline.png({ compressionLevel: 9 })
        : format === "gif"
          ? pipeline.gif()
          : pipeline.webp({ quality: 85 });
  const bytes = await encoded.toBuffer();
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentType: CONTENT_TYPE[format],
    extension: EXTENSION[format],
  };
}

/**
 * Validates and processes an uploaded avatar or header. Throws a 422 AppError for anything that
 * is not an acceptable image; never lets a decoder error escape as a 500.
 */
export async function processProfileImage(
  input: Uint8Array,
  kind: ProfileImageKind,
  options: { maxBytes: number },
): Promise<ProcessedProfileImage> {
  if (input.byteLength === 0) throw invalid(kind, "file is empty");
  if (input.byteLength > options.maxBytes) {
    throw invalid(kind, `file size must be less than ${humanSize(options.maxBytes)}`);
  }
  const detected = await fileTypeFromBuffer(input).catch(() => undefined);
  if (!detected || !ACCEPTED.has(detected.mime)) {
    throw invalid(kind, "content type is invalid (accepted: JPEG, PNG, GIF, WebP and AVIF images)");
  }

  const { width, height } = PROFILE_IMAGE_SIZES[kind];
  // failOn "warning" makes truncated or damaged data an error instead of a grey half-image.
  const base = { limitInputPixels: IMAGE_MATRIX_LIMIT, failOn: "warning" as const };
  try {
    const meta = await sharp(input, base).metadata();
    const frameHeight = meta.pageHeight ?? meta.height ?? 0;
    if (!meta.width || !frameHeight) throw invalid(kind, "could not be read as an image");
    if (meta.width * frameHeight > IMAGE_MATRIX_LIMIT) {
      throw invalid(kind, `dimensions are too large (at most ${IMAGE_MATRIX_LIMIT} pixels)`);
    }
    const animated =
      (meta.pages ?? 1) > 1 && (detected.mime === "image/gif" || detected.mime === "image/webp");
    const format = outputFormat(detected.mime, animated);
    const cover = { fit: "cover" as const, position: "centre" as const };

    if (!animated) {
      const original = await encode(
        sharp(input, base).rotate().resize(width, height, cover),
        format,
      );
      return { kind, original, still: null };
    }
    // The pixel limit of an animated load covers all frames together, so a long animation of
    // large frames is refused like any other bomb.
    const original = await encode(
      sharp(input, { ...base, animated: true }).resize(width, height, cover),
      format,
    );
    const still = await encode(sharp(input, base).resize(width, height, cover), "png");
    return { kind, original, still };
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw invalid(kind, `dimensions are too large (at most ${IMAGE_MATRIX_LIMIT} pixels)`);
    }
    throw invalid(kind, "could not be read as an image (the file is damaged or truncated)");
  }
}

function folderOf(kind: ProfileImageKind, accountId: string): string {
  return `accounts/${kind === "avatar" ? "avatars" : "headers"}/${accountId}`;
}

/** Stores a processed image under server-chosen keys; returns the reference to keep. */
export async function storeProfileImage(
  files: FileHost,
  accountId: string,
  image: ProcessedProfileImage,
): Promise<ImageRef> {
  const name = randomBytes(8).toString("hex");
  const folder = folderOf(image.kind, accountId);
  const key = `${folder}/${name}.${image.original.extension}`;
  await files.put(key, image.original.bytes, image.original.contentType);
  if (!image.still) {
    return { kind: "hosted", key, staticKey: key, contentType: image.original.contentType };
  }
  const staticKey = `${folder}/${name}-static.${image.still.extension}`;
  try {
    await files.put(staticKey, image.still.bytes, image.still.contentType);
  } catch (error) {
    await files.delete(key).catch(() => undefined);
    throw error;
  }
  return { kind: "hosted", key, staticKey, contentType: image.original.contentType };
}

/** Removes the files of a replaced or deleted image (remote references have none). */
export async function discardProfileImage(files: FileHost, ref: ImageRef | null): Promise<void> {
  if (ref?.kind !== "hosted") return;
  await files.delete(ref.key);
  if (ref.staticKey !== ref.key) await files.delete(ref.staticKey);
}
