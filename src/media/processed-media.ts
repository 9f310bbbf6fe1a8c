// What every pipeline (image, GIF, video, audio) hands back to the processing service: the file
// to publish, its preview, Mastodon's `meta` and the BlurHash. Plus the small helpers they share.

import type { MediaDimensions, MediaMeta, MediaType } from "../domain/media.ts";

export interface EncodedFile {
  bytes: Uint8Array;
  contentType: string;
  /** Extension the file is stored with (decides the Content-Type it is served with). */
  extension: string;
}

export interface ProcessedMedia {
  type: MediaType;
  file: EncodedFile;
  preview: EncodedFile | null;
  meta: MediaMeta | null;
  blurhash: string | null;
}

export function dimensions(width: number, height: number): MediaDimensions {
  return { width, height, size: `${width}x${height}`, aspect: width / height };
}

/** Mastodon's `meta.length`: hours unpadded, then minutes, seconds and hundredths ("0:01:28.65"). */
export function lengthOf(seconds: number): string {
  const hundredths = Math.round(seconds * 100);
  const h = Math.floor(hundredths / 360_000);
  const m = Math.floor((hundredths % 360_000) / 6000);
  const s = (hundredths % 6000) / 100;
  return `${h}:${String(m).padStart(2, "0")}:${s.toFixed(2).padStart(5, "0")}`;
}

/** Scales width × height down (never up) to at most `limit` pixels, keeping the aspect ratio. */
export function fitToArea(
  width: number,
  height: number,
  limit: number,
): { width: number; height: number } {
  if (width * height <= limit) return { width, height };
  const scale = Math.sqrt(limit / (width * height));
  return {
    width: Math.max(1, Math.floor(width * scale)),
    height: Math.max(1, Math.floor(height * scale)),
  };
}

export function toUint8Array(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
