// Media of a deleted status stay for a while: "delete and redraft" gives the client the old
// attachments to post again (Mastodon keeps them about a day for that). When a status is deleted,
// a "media.purge-deleted" job is scheduled for the end of that window; it removes the files and
// records of every attachment still belonging to the status, provided the status is still
// deleted. Attachments that a redraft took over belong to the new status by then and stay.

import type { DomainEvent } from "../../domain/events.ts";
import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { removeMediaAttachment } from "./remove-media.ts";

export const MEDIA_PURGE_DELETED_JOB = "media.purge-deleted";

/** How long a deleted status's media are kept for a redraft. */
export const REDRAFT_WINDOW_MS = 24 * 3600_000;

/** Every media id the status ever had: the current ones and those of earlier versions. */
async function mediaIdsOf(ctx: ServiceContext, statusId: string, current: readonly string[]) {
  const edits = await ctx.storage.statusEdits.listByStatus(statusId);
  return [...new Set([...current, ...edits.flatMap((edit) => edit.mediaIds)])];
}

/** Schedules the purge when a status that has (or had) media is deleted. */
export function mediaPurgeListener(ctx: ServiceContext): EventListener {
  return async (event: DomainEvent) => {
    if (event.type !== "status.deleted") return;
    const { status } = event;
    if (status.reblogOfId !== null) return;
    if ((await mediaIdsOf(ctx, status.id, status.mediaIds)).length === 0) return;
    const deletedAt = Date.parse(status.deletedAt ?? "");
    const from = Number.isNaN(deletedAt) ? ctx.clock.now().getTime() : deletedAt;
    await ctx.jobs.enqueue(
      MEDIA_PURGE_DELETED_JOB,
      { statusId: status.id },
      { runAt: new Date(from + REDRAFT_WINDOW_MS) },
    );
  };
}

/** Removes the media still attached to a deleted status; returns how many were removed. */
export async function purgeDeletedStatusMedia(
  ctx: ServiceContext,
  statusId: string,
): Promise<number> {
  const status = await ctx.storage.statuses.get(statusId);
  if (!status?.deleted) return 0;
  const ids = await mediaIdsOf(ctx, status.id, status.mediaIds);
  let removed = 0;
  for (const id of ids) {
    // Only what still belongs to the deleted status: a redraft's attachments have moved on.
    const files = await removeMediaAttachment(ctx, id, (media) => media.statusId === status.id);
    if (files !== null) removed += 1;
  }
  return removed;
}
