// An account with many statuses and media files, written straight to the storage and file host
// (posting them through the API would take minutes), for the archive's test and benchmark.

import { randomBytes } from "node:crypto";
import type { ServiceContext } from "../../src/services/context.ts";
import { makeStatus } from "../../src/storage/contract/fixtures.ts";
import { makeMedia } from "../../src/storage/contract/media.ts";

export interface SeededArchive {
  statusIds: string[];
  mediaKeys: string[];
}

/** `statuses` public posts of `accountId`, the first `media` of them with a file of `fileBytes`. */
export async function seedArchiveAccount(
  ctx: ServiceContext,
  accountId: string,
  counts: { statuses: number; media: number; fileBytes: number },
): Promise<SeededArchive> {
  const statusIds: string[] = [];
  const mediaKeys: string[] = [];
  const now = ctx.clock.now().toISOString();
  for (let i = 0; i < counts.statuses; i++) {
    const id = ctx.ids.next();
    const mediaIds: string[] = [];
    if (i < counts.media) {
      const mediaId = ctx.ids.next();
      const fileKey = `media_attachments/${mediaId}/original.jpg`;
      // Random bytes: deflate cannot shrink them, so the archive is as large as the files.
      await ctx.files.put(fileKey, randomBytes(counts.fileBytes), "image/jpeg");
      await ctx.storage.media.put(
        makeMedia({
          id: mediaId,
          accountId,
          statusId: id,
          contentType: "image/jpeg",
          fileSize: counts.fileBytes,
          fileKey,
          previewKey: null,
          createdAt: now,
          updatedAt: now,
        }),
      );
      mediaIds.push(mediaId);
      mediaKeys.push(fileKey);
    }
    await ctx.storage.statuses.put(
      makeStatus({
        id,
        accountId,
        uri: `${ctx.settings.publicUrl}/users/x/statuses/${id}`,
        text: `post number ${i}`,
        contentHtml: `<p>post number ${i}</p>`,
        conversationId: id,
        mediaIds,
        tags: [],
        createdAt: now,
      }),
    );
    statusIds.push(id);
  }
  return { statusIds, mediaKeys };
}
