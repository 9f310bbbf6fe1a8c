// How ActivityPub serializers turn stored references into URLs (the caller knows the file host).

import type { ImageRef } from "../../domain/account.ts";

export interface ApUrls {
  /** Origin of the instance, e.g. `https://social.example`. */
  publicUrl: string;
  /** The public URL of a file-host key. */
  fileUrl(key: string): string;
}

/** The full-size URL of an image, or null when there is none. */
export function imageUrl(ref: ImageRef | null, urls: ApUrls): string | null {
  if (ref === null) return null;
  return ref.kind === "remote" ? ref.url : urls.fileUrl(ref.key);
}

const TYPES_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  avif: "image/avif",
};

/** A media type guessed from a file name's extension, for images stored without one. */
export function mediaTypeOfName(name: string): string | null {
  const extension = name.split("?")[0]?.split(".").pop()?.toLowerCase() ?? "";
  return TYPES_BY_EXTENSION[extension] ?? null;
}
