// Receiving an upload (POST /api/v2/media, POST and PUT /api/v1/media): the bytes are checked by
// content and size, stored as received under a server-chosen key, and recorded as an attachment
// in state "processing". Then either processed before answering (v1, and images on v2, as
// Mastodon does since 4.0), or handed to the durable queue ("media.process") and answered at once.

import { AppError, unprocessable } from "../../domain/errors.ts";
import type { MediaAttachment, MediaType } from "../../domain/media.ts";
import { extensionForContentType } from "../../media/content-types.ts";
import { processCustomThumbnail } from "../../media/custom-thumbnail.ts";
import { VIDEO_SIZE_LIMIT } from "../../media/limits.ts";
import { detectMediaType, mediaKindOf } from "../../media/media-kind.ts";
import { PROCESSING_FAILED } from "../../media/processing-error.ts";
import { humanSize } from "../../media/profile-images.ts";
import type { ServiceContext } from "../context.ts";
import { checkDescription, parseFocus } from "./media-fields.ts";
import { mediaFileKey, removeMediaFiles } from "./media-files.ts";
import { MEDIA_PROCESS_JOB, processMedia } from "./process-media.ts";
import { storeCustomThumbnail } from "./update-media.ts";

export interface UploadMediaInput {
  accountId: string;
  /** The uploaded file's bytes; undefined when no file was sent. */
  file: Uint8Array | undefined;
  thumbnail?: Uint8Array | undefined;
  description?: string | undefined;
  focus?: string | undefined;
  /**
   * "now": process before answering (v1). "images-now": images before answering, video and
   * audio in the background (v2).
   */
  processing: "now" | "images-now";
}

const BLANK = "Validation failed: File can't be blank";
const INVALID_TYPE = "Validation failed: File content type is invalid, File is invalid";

function initialType(contentType: string): MediaType {
  const kind = mediaKindOf(contentType);
  return kind === "gif" ? "image" : kind;
}

/** Every check that needs no write, so a refused upload leaves nothing behind. */
async function checkUpload(ctx: ServiceContext, input: UploadMediaInput) {
  const file = input.file;
  if (file === undefined || file.byteLength === 0) throw unprocessable(BLANK);
  const description = checkDescription(input.description) ?? null;
  const focus = parseFocus(input.focus) ?? null;
  const contentType = await detectMediaType(file);
  if (contentType === null) throw unprocessable(INVALID_TYPE);
  const type = initialType(contentType);
  const limit = type === "image" ? ctx.settings.maxImageBytes : VIDEO_SIZE_LIMIT;
  if (file.byteLength > limit) {
    throw unprocessable(`Validation failed: File file size must be less than ${humanSize(limit)}`);
  }
  const thumbnail =
    input.thumbnail === undefined
      ? null
      : await processCustomThumbnail(input.thumbnail, { maxBytes: ctx.settings.maxImageBytes });
  return { file, description, focus, contentType, type, thumbnail };
}

/** Processes at once; a refused file is discarded and answered 422 as Mastodon does. */
async function processBeforeAnswering(
  ctx: ServiceContext,
  media: MediaAttachment,
): Promise<MediaAttachment> {
  try {
    await processMedia(ctx, media.id);
  } catch {
    // A passing failure (disk, file host): the queue retries it, the client polls GET.
    await ctx.jobs.enqueue(MEDIA_PROCESS_JOB, { mediaId: media.id });
    return (await ctx.storage.media.get(media.id)) ?? media;
  }
  const done = await ctx.storage.media.get(media.id);
  if (!done) throw new AppError(500, PROCESSING_FAILED);
  if (done.state === "failed") {
    await discard(ctx, done);
    throw unprocessable(done.failureReason ?? PROCESSING_FAILED);
  }
  return done;
}

async function discard(ctx: ServiceContext, media: MediaAttachment): Promise<void> {
  await ctx.storage.media.delete(media.id);
  await removeMediaFiles(ctx, media).catch(() => undefined);
}

export async function uploadMedia(
  ctx: ServiceContext,
  input: UploadMediaInput,
): Promise<MediaAttachment> {
  const checked = await checkUpload(ctx, input);
  const id = ctx.ids.next();
  const uploadKey = mediaFileKey(
    id,
    "upload",
    extensionForContentType(checked.contentType) ?? "bin",
  );
  const now = ctx.clock.now().toISOString();
  const media: MediaAttachment = {
    id,
    accountId: input.accountId,
    statusId: null,
    type: checked.type,
    state: "processing",
    failureReason: null,
    contentType: checked.contentType,
    fileSize: checked.file.byteLength,
    uploadKey,
    fileKey: null,
    previewKey: null,
    customPreviewKey: null,
    remoteUrl: null,
    description: checked.description,
    focus: checked.focus,
    meta: null,
    blurhash: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await ctx.files.put(uploadKey, checked.file, checked.contentType);
    if (checked.thumbnail) {
      media.customPreviewKey = await storeCustomThumbnail(ctx, id, checked.thumbnail);
      media.blurhash = checked.thumbnail.blurhash;
    }
    await ctx.storage.media.put(media);
  } catch (error) {
    await removeMediaFiles(ctx, media).catch(() => undefined);
    throw error;
  }

  if (input.processing === "now" || checked.type === "image") {
    return processBeforeAnswering(ctx, media);
  }
  await ctx.jobs.enqueue(MEDIA_PROCESS_JOB, { mediaId: id });
  return media;
}
