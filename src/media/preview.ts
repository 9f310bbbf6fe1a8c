// The `small` rendition: a still preview scaled down, its dimensions for `meta.small`, and the
// BlurHash computed from it. Images use Mastodon's area limit; video frames its 640×640 box.

import sharp from "sharp";
import type { MediaDimensions } from "../domain/media.ts";
import { blurhashOf } from "./blurhash.ts";
import { IMAGE_MATRIX_LIMIT } from "./limits.ts";
import { dimensions, type EncodedFile, fitToArea, toUint8Array } from "./processed-media.ts";

/** Largest image preview, width × height (640 × 360, Mastodon's `small` style). */
export const SMALL_PIXEL_LIMIT = 230_400;
/** Largest video preview frame side (Mastodon scales frames to fit 640 × 640). */
export const VIDEO_PREVIEW_BOX = 640;

export type PreviewFormat = "jpeg" | "png" | "webp";

export interface Preview {
  file: EncodedFile;
  small: MediaDimensions;
  blurhash: string;
}

const CONTENT_TYPE: Record<PreviewFormat, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};
const EXTENSION: Record<PreviewFormat, string> = { jpeg: "jpg", png: "png", webp: "webp" };

/** Scales the first frame of `still` down and encodes it; never enlarges. */
export async function makePreview(
  still: Uint8Array,
  format: PreviewFormat,
  size: { area: number } | { box: number },
): Promise<Preview> {
  const image = sharp(still, { limitInputPixels: IMAGE_MATRIX_LIMIT });
  const { width = 0, height = 0 } = await image.metadata();
  const target =
    "area" in size
      ? fitToArea(width, height, size.area)
      : { width: Math.min(width, size.box), height: Math.min(height, size.box) };
  const resized = image.resize({
    width: target.width,
    height: target.height,
    fit: "inside",
    withoutEnlargement: true,
  });
  const encoded =
    format === "jpeg"
      ? resized.jpeg({ quality: 90 })
      : format === "png"
        ? resized.png()
        : resized.webp({ quality: 90 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  const bytes = toUint8Array(data);
  return {
    file: { bytes, contentType: CONTENT_TYPE[format], extension: EXTENSION[format] },
    small: dimensions(info.width, info.height),
    blurhash: await blurhashOf(bytes),
  };
}
