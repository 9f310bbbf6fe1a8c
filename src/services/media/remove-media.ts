// Removing a media attachment for good: its files on the file host (every key the record points
// at, see media-files.ts), then its record. Files go first, so a crash in between leaves a record
// that the next cleanup finds and finishes (deleting a file already gone is not an error); never
// files without a record. Done under the attachment's lock, re-reading it there, so a post that
// attaches it (or processing that rewrites it) meanwhile is seen and the removal skipped.

import type { MediaAttachment } from "../../domain/media.ts";
import type { ServiceContext } from "../context.ts";
import { mediaFileKeys, removeMediaFiles } from "./media-files.ts";
import { withMediaLock } from "./media-lock.ts";

/**
 * Removes the attachment if `stillRemovable` holds for its current record; returns the number
 * of files it had, or null when it was left alone (gone already, or no longer removable).
 */
export function removeMediaAttachment(
  ctx: ServiceContext,
  mediaId: string,
  stillRemovable: (media: MediaAttachment) => boolean,
): Promise<number | null> {
  return withMediaLock(ctx, mediaId, async () => {
    const media = await ctx.storage.media.get(mediaId);
    if (!media || !stillRemovable(media)) return null;
    await removeMediaFiles(ctx, media);
    await ctx.storage.media.delete(media.id);
    return mediaFileKeys(media).length;
  });
}
