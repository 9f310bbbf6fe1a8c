// Forgetting a remote status for good (the retention sweep, remote-status-retention.ts): unlike a
// deletion, which keeps a tombstone, the record goes, with everything that only it used: its media
// (files on the file host and records), earlier versions, poll, notifications and its place in
// the quotes of the post it quotes. Nothing is sent to its server: the status is still there,
// and is fetched again if someone here looks it up.
// The status's record goes last, so a run cut short (a crash, a file host down) leaves the status
// in place for the next sweep to finish, never parts of it nothing points at any more.

import type { ServiceContext } from "../context.ts";
import { removeMediaAttachment } from "../media/remove-media.ts";

/** Removes the remote status and its own records; false when it is gone already or local. */
export async function forgetRemoteStatus(
  ctx: ServiceContext,
  statusId: string,
  uri: string,
): Promise<boolean> {
  // The lock of updating and deleting remote statuses (and of ingesting them where the storage
  // does not settle puts by uri itself, ADR 0080): none of them runs meanwhile. An ingest
  // without it stores a new copy under a new id once this one is gone, as a later one would.
  return ctx.storage.coordination.withLock(`remote-status:${uri}`, async () => {
    const status = await ctx.storage.statuses.get(statusId);
    if (!status || status.local) return false;
    const edits = await ctx.storage.statusEdits.listByStatus(status.id);
    const mediaIds = new Set([...status.mediaIds, ...edits.flatMap((edit) => edit.mediaIds)]);
    for (const id of mediaIds) {
      // Only what is still this status's (never another status's attachment).
      await removeMediaAttachment(ctx, id, (media) => media.statusId === status.id);
    }
    if (status.pollId !== null) await ctx.storage.polls.delete(status.pollId);
    await ctx.storage.statusEdits.deleteByStatus(status.id);
    await ctx.storage.notifications.deleteByStatus(status.id);
    // Its accepted quote leaves the quoted post's list (and lets the sweep take that one too).
    const quotedId = status.quote?.quotedStatusId;
    if (quotedId) await ctx.storage.quotes.delete(status.id, quotedId);
    return ctx.storage.statuses.delete(status.id);
  });
}
