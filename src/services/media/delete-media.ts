// DELETE /api/v1/media/:id (Mastodon 4.4): the owner removes an upload they will not post. Once
// attached it belongs to the status and goes with it.

import { notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { removeMediaFiles } from "./media-files.ts";
import { withMediaLock } from "./media-lock.ts";

export async function deleteMedia(
  ctx: ServiceContext,
  accountId: string,
  mediaId: string,
): Promise<void> {
  const removed = await withMediaLock(ctx, mediaId, async () => {
    const media = await ctx.storage.media.get(mediaId);
    if (!media || media.accountId !== accountId) throw notFound();
    if (media.statusId !== null) {
      throw unprocessable("Media attachment is currently used by a status");
    }
    await ctx.storage.media.delete(mediaId);
    return media;
  });
  // After the record: a crash in between leaves unreferenced files, never a record without them.
  await removeMediaFiles(ctx, removed);
}
