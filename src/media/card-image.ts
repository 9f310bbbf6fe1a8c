// A preview card's image: checked by content (JPEG, PNG, GIF, WebP or AVIF only: no SVG or other
// formats the decoder would also take), decoded under the pixel limit, re-encoded (never served
// as fetched) and shrunk to fit 400×400 as Mastodon's cards are, with its BlurHash.

import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { blurhashOf } from "./blurhash.ts";
import type { CustomThumbnail } from "./custom-thumbnail.ts";
import { IMAGE_MATRIX_LIMIT, PROFILE_IMAGE_TYPES } from "./limits.ts";

const CARD_SIZE = 400;
const ACCEPTED: ReadonlySet<string> = new Set(PROFILE_IMAGE_TYPES);

/** The same shape as a client's custom thumbnail: bytes, type, size and BlurHash. */
export type CardImage = CustomThumbnail;

/** Throws when the bytes are not a readable image of an accepted type. */
export async function processCardImage(input: Uint8Array): Promise<CardImage> {
  const detected = await fileTypeFromBuffer(input).catch(() => undefined);
  if (!detected || !ACCEPTED.has(detected.mime)) throw new Error("not an accepted image type");
  const { data, info } = await sharp(input, {
    limitInputPixels: IMAGE_MATRIX_LIMIT,
    failOn: "warning",
  })
    .rotate()
    .resize(CARD_SIZE, CARD_SIZE, { fit: "inside", withoutEnlargement: true })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return {
    bytes,
    contentType: "image/jpeg",
    extension: "jpg",
    width: info.width,
    height: info.height,
    blurhash: await blurhashOf(bytes),
  };
}
