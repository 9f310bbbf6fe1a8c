// Which pipeline a file goes through, decided from the type detected in its bytes. file-type
// names some formats differently from the types Wren publishes (audio/x-m4a, audio/ogg with a
// codecs parameter…), so detected types are first brought to the published spelling.

import { fileTypeFromBuffer } from "file-type";
import { SUPPORTED_MEDIA_TYPES } from "./limits.ts";

export type MediaKind = "image" | "gif" | "video" | "audio";

const ALIASES: Record<string, string> = {
  "audio/x-m4a": "audio/mp4",
  "audio/m4a": "audio/mp4",
  "audio/x-flac": "audio/flac",
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/mp3": "audio/mpeg",
  "audio/opus": "audio/ogg",
};

const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTED_MEDIA_TYPES);

/** The published spelling of a detected MIME type (parameters dropped, aliases resolved). */
export function normalizeMediaType(mime: string): string {
  const bare = mime.split(";")[0]?.trim().toLowerCase() ?? "";
  return ALIASES[bare] ?? bare;
}

/** The supported media type of these bytes, or null when they are none of them. */
export async function detectMediaType(bytes: Uint8Array): Promise<string | null> {
  if (bytes.byteLength === 0) return null;
  const detected = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!detected) return null;
  const type = normalizeMediaType(detected.mime);
  return SUPPORTED.has(type) ? type : null;
}

export function mediaKindOf(type: string): MediaKind {
  if (type === "image/gif") return "gif";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  return "audio";
}
