// Changing an attachment's description, focal point and custom preview: PUT /api/v1/media/:id
// before posting, and media_attributes[] when editing a status. Everything is checked (and a
// new preview processed) before any write; the write itself happens under the attachment's
// lock on a fresh copy, so processing finishing meanwhile is not undone.

import type { MediaAttachment } from "../../domain/media.ts";
import { type CustomThumbnail, processCustomThumbnail } from "../../media/custom-thumbnail.ts";
import type { ServiceContext } from "../context.ts";
import { checkDescription, parseFocus } from "./media-fields.ts";
import { mediaFileKey } from "./media-files.ts";
import { withMediaLock } from "./media-lock.ts";
import { checkOwnUnattached, scheduledHolderOf } from "./own-media.ts";

/** What the client sent; absent fields stay as they are. */
export interface MediaChanges {
  description?: string | undefined;
  focus?: string | undefined;
  thumbnail?: Uint8Array | undefined;
}

/** Checked changes, ready to apply. */
export interface PreparedMediaChanges {
  description?: string | null;
  focus?: { x: number; y: number };
  thumbnail?: CustomThumbnail;
}

export async function prepareMediaChanges(
  ctx: ServiceContext,
  changes: MediaChanges,
): Promise<PreparedMediaChanges> {
  const prepared: PreparedMediaChanges = {};
  const description = checkDescription(changes.description);
  if (description !== undefined) prepared.description = description;
  const focus = parseFocus(changes.focus);
  if (focus !== undefined) prepared.focus = focus;
  if (changes.thumbnail !== undefined) {
    prepared.thumbnail = await processCustomThumbnail(changes.thumbnail, {
      maxBytes: ctx.settings.maxImageBytes,
    });
  }
  return prepared;
}

/** Stores a processed custom preview; returns its key. */
export async function storeCustomThumbnail(
  ctx: ServiceContext,
  mediaId: string,
  thumbnail: CustomThumbnail,
): Promise<string> {
  const key = mediaFileKey(mediaId, "thumbnail", thumbnail.extension);
  await ctx.files.put(key, thumbnail.bytes, thumbnail.contentType);
  return key;
}

export interface AppliedMediaChanges {
  media: MediaAttachment;
  /** Something a reader sees changed (Mastodon's `significantly_changed?`): worth an edit. */
  significant: boolean;
}

/**
 * Applies prepared changes to the stored attachment. `check` sees the fresh record inside the
 * lock and may refuse (throw); the record it returns is the one changed.
 */
export async function applyMediaChanges(
  ctx: ServiceContext,
  mediaId: string,
  prepared: PreparedMediaChanges,
  check: (media: MediaAttachment | undefined) => MediaAttachment,
): Promise<AppliedMediaChanges> {
  return withMediaLock(ctx, mediaId, async () => {
    const current = check(await ctx.storage.media.get(mediaId));
    const next: MediaAttachment = { ...current };
    let significant = false;
    if (prepared.description !== undefined && prepared.description !== current.description) {
      next.description = prepared.description;
      significant = true;
    }
    const focus = prepared.focus;
    if (focus !== undefined && (focus.x !== current.focus?.x || focus.y !== current.focus?.y)) {
      next.focus = focus;
      significant = true;
    }
    let newKey: string | null = null;
    if (prepared.thumbnail) {
      newKey = await storeCustomThumbnail(ctx, mediaId, prepared.thumbnail);
      next.customPreviewKey = newKey;
      next.blurhash = prepared.thumbnail.blurhash;
      significant = true;
    }
    if (!significant) return { media: current, significant };
    next.updatedAt = ctx.clock.now().toISOString();
    try {
      await ctx.storage.media.put(next);
    } catch (error) {
      if (newKey) await ctx.files.delete(newKey).catch(() => undefined);
      throw error;
    }
    // The replaced preview goes only once nothing points at it any more.
    if (newKey && current.customPreviewKey) {
      await ctx.files.delete(current.customPreviewKey).catch(() => undefined);
    }
    return { media: next, significant };
  });
}

/** PUT /api/v1/media/:id: the viewer's own unattached (or scheduled) attachment, changed. */
export async function updateMedia(
  ctx: ServiceContext,
  accountId: string,
  mediaId: string,
  changes: MediaChanges,
): Promise<MediaAttachment> {
  const found = await ctx.storage.media.get(mediaId);
  // Published meanwhile, the attachment has moved to the status: the check below refuses it.
  const heldBy = await scheduledHolderOf(ctx, found, accountId);
  checkOwnUnattached(found, accountId, heldBy);
  const prepared = await prepareMediaChanges(ctx, changes);
  const applied = await applyMediaChanges(ctx, mediaId, prepared, (media) =>
    checkOwnUnattached(media, accountId, heldBy),
  );
  return applied.media;
}
