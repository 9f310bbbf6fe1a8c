// Media attachments for lifecycle tests, written through the running server's own storage and
// file host (the upload endpoint is tested elsewhere): a record with real files behind every key
// it names, created at the server's current (movable) time.

import type { MediaAttachment } from "../../src/domain/media.ts";
import { mediaFileKeys } from "../../src/services/media/media-files.ts";
import { makeMedia } from "../../src/storage/contract/media.ts";
import type { TestServer } from "../helpers/server.ts";

export async function storeMedia(
  server: TestServer,
  accountId: string,
  overrides: Partial<MediaAttachment> = {},
): Promise<MediaAttachment> {
  const ctx = server.wren.ctx;
  const id = ctx.ids.next();
  const now = ctx.clock.now().toISOString();
  const media = makeMedia({
    id,
    accountId,
    fileKey: `media_attachments/${id}/original-0a1b2c.png`,
    previewKey: `media_attachments/${id}/small-3d4e5f.webp`,
    customPreviewKey: `media_attachments/${id}/thumbnail-6a7b8c.png`,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });
  for (const key of mediaFileKeys(media)) {
    await ctx.files.put(key, new TextEncoder().encode(`bytes of ${key}`), "image/png");
  }
  await ctx.storage.media.put(media);
  return media;
}

/** The keys of `media` that still have a file on the server's file host. */
export async function remainingFiles(server: TestServer, media: MediaAttachment) {
  const present: string[] = [];
  for (const key of mediaFileKeys(media)) {
    if ((await server.wren.ctx.files.get(key)) !== null) present.push(key);
  }
  return present;
}

/** Whether the record and every file of `media` are still there (true), all gone (false). */
export async function isKept(server: TestServer, media: MediaAttachment): Promise<boolean> {
  const record = await server.wren.ctx.storage.media.get(media.id);
  const files = await remainingFiles(server, media);
  if (record && files.length === mediaFileKeys(media).length) return true;
  if (!record && files.length === 0) return false;
  throw new Error(`media ${media.id} half removed: record ${!!record}, files ${files.join(",")}`);
}
