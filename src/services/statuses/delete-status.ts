// Deleting a status: the record keeps its file with the internal `deleted` flag set (DESIGN §1),
// so the API answers 404 and ActivityPub a Tombstone afterwards. Boosts of it go with it, as in
// Mastodon. Deleting a boost through this endpoint deletes just the boost. Follow-up jobs finish
// the boosts after a kill (delete-reblogs.ts) and purge the content later (purge-deleted-content.ts).

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { followUp } from "../follow-up.ts";
import { deleteReblogsOf, scheduleDeleteReblogs } from "./delete-reblogs.ts";
import { loadOwnStatus } from "./own-status.ts";
import { schedulePurgeDeletedContent } from "./purge-deleted-content.ts";

/** Returns the status as it was (its source text is in `text`, for "delete and redraft"). */
export async function deleteStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  return markDeleted(ctx, await loadOwnStatus(ctx, accountId, statusId));
}

/**
 * Flags the status deleted, its boosts with it, and publishes `status.deleted` (local or remote).
 * The status's own flag is the deletion: once it is stored the status is gone from every answer,
 * its boosts included (the views leave out boosts of a deleted status). Flagging the boosts is a
 * follow-up, so a disk that fills up in between cannot turn a stored deletion into an error.
 */
export async function markDeleted(ctx: ServiceContext, status: Status): Promise<Status> {
  const at = ctx.clock.now().toISOString();
  const deleted: Status = { ...status, deleted: true, deletedAt: at };
  if (status.reblogOfId === null) {
    // Queued before the flag is written, so a kill after it cannot lose them (each does nothing
    // if the flag never made it to disk).
    await scheduleDeleteReblogs(ctx, status.id);
    await schedulePurgeDeletedContent(ctx, status.id, at);
  }
  // Recorded before the flag (ADR 0013): a crash after it still sends the Delete.
  await publishAround(ctx.events, { type: "status.deleted", status: deleted }, async () => {
    await ctx.storage.statuses.put(deleted);
    if (status.reblogOfId === null) {
      await followUp(`flag the boosts of deleted status ${status.id} deleted`, () =>
        deleteReblogsOf(ctx, status.id, at),
      );
    }
  });
  return deleted;
}
