// The files of an attachment on the file host, named by the server: a folder per attachment,
// with a random part in every name so that no URL can be guessed before it is published (an
// upload still carries its camera metadata until processing strips it).

import { randomBytes } from "node:crypto";
import type { MediaAttachment } from "../../domain/media.ts";
import type { ServiceContext } from "../context.ts";

/** A new key under the attachment's folder: `media_attachments/<id>/<role>-<random>.<ext>`. */
export function mediaFileKey(mediaId: string, role: string, extension: string): string {
  return `media_attachments/${mediaId}/${role}-${randomBytes(8).toString("hex")}.${extension}`;
}

/** Every key the record points at (upload, processed file, previews), without repeats. */
export function mediaFileKeys(media: MediaAttachment): string[] {
  const keys = [media.uploadKey, media.fileKey, media.previewKey, media.customPreviewKey];
  return [...new Set(keys.filter((k): k is string => k !== null))];
}

/** Removes the attachment's files from the host (missing files are not an error). */
export async function removeMediaFiles(ctx: ServiceContext, media: MediaAttachment): Promise<void> {
  await Promise.all(mediaFileKeys(media).map((key) => ctx.files.delete(key)));
}
