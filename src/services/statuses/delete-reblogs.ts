// The boosts of a deleted status go with it, as in Mastodon. Deleting is two steps, the status's
// own flag and then its boosts' flags; a kill between them would leave live boosts of a deleted
// status, counted in their boosters' statuses_count for good. So before the status is flagged,
// a "status.delete-reblogs" job is queued (durably) to finish the job a minute later: after a
// clean delete it finds nothing left; after a kill it runs once the server is back.

import type { ServiceContext } from "../context.ts";

export const DELETE_REBLOGS_JOB = "status.delete-reblogs";

/** How long after the delete the job looks again (the inline pass is long done by then). */
export const DELETE_REBLOGS_DELAY_MS = 60_000;

const REBLOG_BATCH = 200;

/** Flags every live boost of `statusId` deleted at `at`. */
export async function deleteReblogsOf(
  ctx: ServiceContext,
  statusId: string,
  at: string,
): Promise<void> {
  for (;;) {
    const reblogs = await ctx.storage.statuses.listReblogs(statusId, { limit: REBLOG_BATCH });
    if (reblogs.length === 0) return;
    await Promise.all(
      reblogs.map((r) => ctx.storage.statuses.put({ ...r, deleted: true, deletedAt: at })),
    );
  }
}

/** Queues the safety net; call before the status is flagged. Only a status with boosts needs it. */
export async function scheduleDeleteReblogs(ctx: ServiceContext, statusId: string): Promise<void> {
  if ((await ctx.storage.statuses.countReblogs(statusId)) === 0) return;
  const runAt = new Date(ctx.clock.now().getTime() + DELETE_REBLOGS_DELAY_MS);
  await ctx.jobs.enqueue(DELETE_REBLOGS_JOB, { statusId }, { runAt });
}

/** The job: if the status was flagged deleted (the kill may have come before), its boosts follow. */
export async function finishDeletingReblogs(ctx: ServiceContext, statusId: string): Promise<void> {
  const status = await ctx.storage.statuses.get(statusId);
  if (!status?.deleted) return;
  await deleteReblogsOf(ctx, statusId, status.deletedAt ?? ctx.clock.now().toISOString());
}
