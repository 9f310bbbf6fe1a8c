// Images for upload tests, made with sharp at test time: photos with EXIF (orientation, GPS),
// animations, and hostile files (truncated data, decompression bombs).

import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";

type Rgb = { r: number; g: number; b: number };
export const RED: Rgb = { r: 255, g: 0, b: 0 };
export const BLUE: Rgb = { r: 0, g: 0, b: 255 };
export const GREEN: Rgb = { r: 0, g: 255, b: 0 };

/** A width×height image whose left half is `left` and right half is `right`, as raw RGB. */
async function twoTone(width: number, height: number, left: Rgb, right: Rgb) {
  const half = Math.floor(width / 2);
  const leftPart = await sharp({
    create: { width: half, height, channels: 3, background: left },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: right } }).composite([
    { input: leftPart, left: 0, top: 0 },
  ]);
}

export const EXIF_CAMERA = "WrenTestCam";

/**
 * A JPEG stored landscape (left red, right blue) with EXIF orientation 6 (display rotated 90°
 * clockwise, so red on top and blue below) plus camera and GPS tags that must not survive.
 */
export async function jpegWithExif(width = 400, height = 200): Promise<Buffer> {
  const image = await twoTone(width, height, RED, BLUE);
  return image
    .jpeg({ quality: 95 })
    .withMetadata({
      orientation: 6,
      exif: {
        IFD0: { Make: EXIF_CAMERA, Model: "Model X" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "48/1 51/1 24/1",
          GPSLongitudeRef: "E",
          GPSLongitude: "2/1 21/1 3/1",
        },
      },
    })
    .toBuffer();
}

export async function solidPng(width = 64, height = 64, color: Rgb = GREEN): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** A JPEG with noisy content (so it is large enough to cut in the middle of the scan data). */
export async function noisyJpeg(width = 600, height = 400): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export async function truncatedJpeg(): Promise<Buffer> {
  const whole = await noisyJpeg();
  return whole.subarray(0, Math.floor(whole.length * 0.6));
}

/** A three-frame animated GIF (red, green, blue). */
export async function animatedGif(width = 60, height = 30): Promise<Buffer> {
  const frames = await Promise.all(
    [RED, GREEN, BLUE].map((background) =>
      sharp({ create: { width, height, channels: 3, background } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: [100, 100, 100], loop: 0 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A tiny PNG (a few hundred bytes) whose header declares width×height grey pixels. */
export function pngBomb(width = 30000, height = 30000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(Buffer.alloc((width + 1) * 4))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The colour of one pixel, for checking orientation and crops. */
export async function pixelAt(image: Uint8Array, x: number, y: number): Promise<Rgb> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at] as number, g: data[at + 1] as number, b: data[at + 2] as number };
}

export function isClose(actual: Rgb, expected: Rgb, tolerance = 40): boolean {
  return (
    Math.abs(actual.r - expected.r) <= tolerance &&
    Math.abs(actual.g - expected.g) <= tolerance &&
    Math.abs(actual.b - expected.b) <= tolerance
  );
}
