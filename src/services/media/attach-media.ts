// Attaching media to a status (media_ids[] on POST and PUT /api/v1/statuses), with Mastodon's
// rules: at most the instance's limit and never next to a poll; only the poster's own media that
// is unattached (or, when editing, already on this status, or on one of the poster's deleted
// statuses: "delete and redraft" posts the old media again); a video or audio file alone; and
// only media that has finished processing.

import { unprocessable } from "../../domain/errors.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import type { ServiceContext } from "../context.ts";
import { withMediaLock } from "./media-lock.ts";

export interface AttachRequest {
  accountId: string;
  mediaIds: readonly string[];
  /** The status being edited; its own media counts as available. */
  statusId?: string | undefined;
  /** A poll goes with the status: no media then. */
  hasPoll?: boolean | undefined;
  /** A scheduled status whose media counts as available (it is being published). */
  heldBy?: string | undefined;
}

export const NOT_READY =
  "Validation failed: Cannot attach files that have not finished processing. Try again in a moment!";

const tooMany = (max: number) => `Validation failed: Cannot attach more than ${max} files`;

/** The attachments to put on the status, in the requested order (repeats collapsed). */
export async function checkAttachable(
  ctx: ServiceContext,
  request: AttachRequest,
): Promise<MediaAttachment[]> {
  const max = ctx.settings.maxMediaAttachments;
  if (request.mediaIds.length === 0) return [];
  if (request.mediaIds.length > max || request.hasPoll) throw unprocessable(tooMany(max));
  const ids = [...new Set(request.mediaIds)];
  const found = await ctx.storage.media.getMany(ids);
  const holderIds = [...found.values()].flatMap((m) =>
    m.statusId !== null && m.statusId !== request.statusId && m.statusId !== request.heldBy
      ? [m.statusId]
      : [],
  );
  const holders = holderIds.length > 0 ? await ctx.storage.statuses.getMany(holderIds) : new Map();
  const redraftable = (statusId: string) => {
    const holder = holders.get(statusId);
    return holder?.deleted === true && holder.accountId === request.accountId;
  };
  const usable = (m: MediaAttachment | undefined): m is MediaAttachment =>
    m !== undefined &&
    m.accountId === request.accountId &&
    (m.statusId === null ||
      m.statusId === request.statusId ||
      m.statusId === request.heldBy ||
      redraftable(m.statusId));
  const missing = ids.filter((id) => !usable(found.get(id)));
  if (missing.length > 0) {
    throw unprocessable(
      `Validation failed: Media ${missing.join(", ")} not found or already attached to another post`,
    );
  }
  const media = ids.map((id) => found.get(id) as MediaAttachment);
  if (media.length > 1 && media.some((m) => m.type === "video" || m.type === "audio")) {
    throw unprocessable(
      "Validation failed: Cannot attach a video to a post that already contains images",
    );
  }
  if (media.some((m) => m.state !== "ready")) throw unprocessable(NOT_READY);
  return media;
}

/**
 * Marks the attachments as belonging to the status, before the status is stored (see
 * withAttachedMedia): a crash in between leaves an attachment pointing at a status that never
 * came (unusable, its files kept), never a posted status whose media the cleanup of unattached
 * uploads would later remove.
 */
async function setStatusOf(
  ctx: ServiceContext,
  moves: readonly { id: string; from: string | null; to: string | null }[],
): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await Promise.all(
    moves.map(({ id, from, to }) =>
      withMediaLock(ctx, id, async () => {
        const current = await ctx.storage.media.get(id);
        if (!current || current.statusId !== from) return;
        await ctx.storage.media.put({ ...current, statusId: to, updatedAt: now });
      }),
    ),
  );
}

/**
 * Attaches the media to the status, then runs `store` (which writes the status); if that fails,
 * the media newly attached here is released again so the poster can use it once more.
 */
export async function withAttachedMedia<T>(
  ctx: ServiceContext,
  media: readonly MediaAttachment[],
  statusId: string,
  store: () => Promise<T>,
): Promise<T> {
  const added = media.filter((m) => m.statusId !== statusId);
  await setStatusOf(
    ctx,
    added.map((m) => ({ id: m.id, from: m.statusId, to: statusId })),
  );
  try {
    return await store();
  } catch (error) {
    await setStatusOf(
      ctx,
      added.map((m) => ({ id: m.id, from: statusId, to: m.statusId })),
    ).catch(() => undefined);
    throw error;
  }
}

/**
 * Gives back the attachments `holderId` holds (a cancelled scheduled status): unattached again,
 * the poster can use them once more. Those it no longer holds are left alone.
 */
export async function releaseMedia(
  ctx: ServiceContext,
  mediaIds: readonly string[],
  holderId: string,
): Promise<void> {
  await setStatusOf(
    ctx,
    mediaIds.map((id) => ({ id, from: holderId, to: null })),
  );
}
