// Processing an uploaded attachment: read the upload back from the file host, run it through the
// pipeline for its type (detected again from the bytes: the record's word is not trusted), store
// the published file and its preview under new server-chosen keys, mark the attachment ready (or
// failed, with a reason the uploader can read), then delete the upload.
//
// Safe to run any number of times, and after a crash at any point:
// - the new keys are derived from the attachment id and the upload's bytes (a hash: nobody can
//   guess them without the file), so a retry overwrites what an interrupted run stored instead
//   of leaving orphans behind;
// - an attachment that is no longer processing is left alone, apart from finishing the removal
//   of an upload that a crash left behind;
// - each record write re-reads the record under the attachment's lock and changes only the
//   processing fields, so a description or focus set meanwhile is kept. The slow part (decoding,
//   ffmpeg) runs outside the lock.

import { createHash } from "node:crypto";
import type { MediaAttachment } from "../../domain/media.ts";
import { findFfmpeg } from "../../media/ffmpeg.ts";
import { detectMediaType } from "../../media/media-kind.ts";
import { processFile } from "../../media/pipeline.ts";
import type { ProcessedMedia } from "../../media/processed-media.ts";
import { MediaProcessingError, UNVERIFIED_TYPE } from "../../media/processing-error.ts";
import type { ServiceContext } from "../context.ts";
import { withMediaLock } from "./media-lock.ts";

/** The job that processes an upload; payload `{ mediaId }`. */
export const MEDIA_PROCESS_JOB = "media.process";

/** Why an attachment whose upload is gone from the file host cannot be processed. */
const UPLOAD_MISSING = "The uploaded file is no longer available; please upload it again";

/** `media_attachments/<id>/original-<hash>.<ext>` and `…/small-<hash>.<ext>`. */
function keysFor(mediaId: string, upload: Uint8Array, result: ProcessedMedia) {
  const hash = createHash("sha256").update(mediaId).update("\0").update(upload).digest("hex");
  const name = hash.slice(0, 24);
  const folder = `media_attachments/${mediaId}`;
  return {
    fileKey: `${folder}/original-${name}.${result.file.extension}`,
    previewKey: result.preview ? `${folder}/small-${name}.${result.preview.extension}` : null,
  };
}

/** Deletes the upload of a finished attachment (unless it became one of its published files). */
async function discardUpload(ctx: ServiceContext, mediaId: string): Promise<void> {
  const media = await ctx.storage.media.get(mediaId);
  if (!media || media.state === "processing" || media.uploadKey === null) return;
  const { uploadKey } = media;
  if (uploadKey !== media.fileKey && uploadKey !== media.previewKey) {
    await ctx.files.delete(uploadKey);
  }
  await withMediaLock(ctx, mediaId, async () => {
    const latest = await ctx.storage.media.get(mediaId);
    if (latest?.uploadKey === uploadKey)
      await ctx.storage.media.put({ ...latest, uploadKey: null });
  });
}

/**
 * Marks a still-processing attachment failed with `reason` and deletes its upload. Used for
 * files that can never be processed, and by the job handler once its retries run out.
 */
export async function failMediaProcessing(
  ctx: ServiceContext,
  mediaId: string,
  reason: string,
): Promise<void> {
  await withMediaLock(ctx, mediaId, async () => {
    const media = await ctx.storage.media.get(mediaId);
    if (media?.state !== "processing") return;
    await ctx.storage.media.put({
      ...media,
      state: "failed",
      failureReason: reason,
      updatedAt: ctx.clock.now().toISOString(),
    });
  });
  await discardUpload(ctx, mediaId);
}

/** The record once processed: only the processing fields change. */
function readyRecord(
  latest: MediaAttachment,
  result: ProcessedMedia,
  keys: { fileKey: string; previewKey: string | null },
  now: Date,
): MediaAttachment {
  // A focus point set while processing is the client's: keep it over anything computed.
  const focus = latest.meta?.focus;
  const meta = result.meta || focus ? { ...result.meta, ...(focus ? { focus } : {}) } : null;
  return {
    ...latest,
    type: result.type,
    state: "ready",
    failureReason: null,
    contentType: result.file.contentType,
    fileSize: result.file.bytes.byteLength,
    fileKey: keys.fileKey,
    previewKey: keys.previewKey,
    meta,
    // Clients paint the blurhash where the preview goes: a preview the client chose keeps its own.
    blurhash: latest.customPreviewKey ? (latest.blurhash ?? result.blurhash) : result.blurhash,
    updatedAt: now.toISOString(),
  };
}

async function publish(
  ctx: ServiceContext,
  mediaId: string,
  upload: Uint8Array,
  result: ProcessedMedia,
): Promise<void> {
  const keys = keysFor(mediaId, upload, result);
  await ctx.files.put(keys.fileKey, result.file.bytes, result.file.contentType);
  if (keys.previewKey && result.preview) {
    await ctx.files.put(keys.previewKey, result.preview.bytes, result.preview.contentType);
  }
  const stale = await withMediaLock(ctx, mediaId, async () => {
    const latest = await ctx.storage.media.get(mediaId);
    if (latest?.state === "processing") {
      await ctx.storage.media.put(readyRecord(latest, result, keys, ctx.clock.now()));
      return [];
    }
    // Deleted, or finished by a concurrent run, while this one worked: drop what this run
    // stored unless the record points at the very same files (same keys mean same bytes).
    const kept = new Set([latest?.fileKey, latest?.previewKey]);
    return [keys.fileKey, keys.previewKey].filter((k): k is string => k !== null && !kept.has(k));
  });
  await Promise.all(stale.map((key) => ctx.files.delete(key)));
}

/**
 * Processes the attachment `mediaId`; resolves once it is ready or failed (or when there is
 * nothing to do). Throws only on passing troubles (file host or storage errors), which the job
 * runner retries.
 */
export async function processMedia(ctx: ServiceContext, mediaId: string): Promise<void> {
  const media = await ctx.storage.media.get(mediaId);
  if (!media) return;
  if (media.state !== "processing") {
    // A crash after marking it ready or failed may have left the upload behind.
    await discardUpload(ctx, mediaId);
    return;
  }
  const upload = media.uploadKey === null ? null : await ctx.files.get(media.uploadKey);
  if (!upload) return failMediaProcessing(ctx, mediaId, UPLOAD_MISSING);

  let result: ProcessedMedia;
  try {
    const type = await detectMediaType(upload);
    if (!type) throw new MediaProcessingError(UNVERIFIED_TYPE);
    result = await processFile(await findFfmpeg(ctx.settings.ffmpeg), upload, type);
  } catch (error) {
    if (error instanceof MediaProcessingError) {
      return failMediaProcessing(ctx, mediaId, error.reason);
    }
    throw error;
  }
  await publish(ctx, mediaId, upload, result);
  await discardUpload(ctx, mediaId);
}
