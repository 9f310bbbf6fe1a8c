// A deleted status keeps its record as a tombstone (the API answers 404, ActivityPub 410, and
// ids stay taken), but not its words: after a grace period its text, content, content warning,
// mentions, tags and every earlier version (edit history) are removed from disk. The grace period
// is longer than the day "delete and redraft" keeps the media (purge-deleted-status-media.ts),
// which this purge finishes too. The job is queued durably before the status is flagged, so
// a kill right after the delete cannot lose it; it does nothing to a status that is not deleted.

import type { ServiceContext } from "../context.ts";
import { purgeDeletedStatusMedia } from "../media/purge-deleted-status-media.ts";

export const PURGE_DELETED_CONTENT_JOB = "status.purge-deleted-content";

/** How long a deleted status keeps its content on disk. */
export const DELETED_CONTENT_GRACE_MS = 7 * 24 * 3600_000;

/** Queues the purge of `statusId`'s content for the end of the grace period after `deletedAt`. */
export async function schedulePurgeDeletedContent(
  ctx: ServiceContext,
  statusId: string,
  deletedAt: string,
): Promise<void> {
  const runAt = new Date(Date.parse(deletedAt) + DELETED_CONTENT_GRACE_MS);
  await ctx.jobs.enqueue(PURGE_DELETED_CONTENT_JOB, { statusId }, { runAt });
}

/** Empties a deleted status down to its tombstone; false when it is not deleted (or is gone). */
export async function purgeDeletedContent(ctx: ServiceContext, statusId: string): Promise<boolean> {
  const found = await ctx.storage.statuses.get(statusId);
  if (!found?.deleted) return false;
  const purge = async () => {
    // Read again inside the lock: the record may have changed or gone meanwhile.
    const status = await ctx.storage.statuses.get(statusId);
    if (!status?.deleted) return false;
    // Media first: their purge finds them through the status's and its versions' media ids.
    await purgeDeletedStatusMedia(ctx, status.id);
    await ctx.storage.statusEdits.deleteByStatus(status.id);
    await ctx.storage.statuses.put({
      ...status,
      text: "",
      contentHtml: "",
      spoilerText: "",
      mentionIds: [],
      tags: [],
      mediaIds: [],
    });
    return true;
  };
  // A remote tombstone may also be forgotten by the retention sweep, under the lock every write
  // of a remote status takes: a purge outside it could write back a record just removed.
  return found.local
    ? purge()
    : ctx.storage.coordination.withLock(`remote-status:${found.uri}`, purge);
}
