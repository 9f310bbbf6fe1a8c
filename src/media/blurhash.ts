// BlurHash of a preview: the few-byte colour sketch clients paint while the real file loads.
// Computed from a tiny copy (the hash keeps only 4×4 colour components, as Mastodon does), so the
// cost does not depend on the size of the upload.

import { encode } from "blurhash";
import sharp from "sharp";

/** Mastodon's component counts (x_comp: 4, y_comp: 4). */
const COMPONENTS_X = 4;
const COMPONENTS_Y = 4;
const SAMPLE_SIZE = 32;

/** BlurHash of an encoded still image (PNG, JPEG, WebP…); only the first frame is used. */
export async function blurhashOf(image: Uint8Array): Promise<string> {
  const { data, info } = await sharp(image)
    .resize(SAMPLE_SIZE, SAMPLE_SIZE, { fit: "inside" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
  return encode(pixels, info.width, info.height, COMPONENTS_X, COMPONENTS_Y);
}
