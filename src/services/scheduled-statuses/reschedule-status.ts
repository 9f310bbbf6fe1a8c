// PUT /api/v1/scheduled_statuses/:id: only the time can change, under the same rules as when it
// was scheduled. The publishing job moves with it: the new one is queued before the record
// changes and the old one removed after, so a crash in between leaves at most a stale job (which
// finds the record not yet due, or gone, and does nothing), never a record without a job.

import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { ServiceContext } from "../context.ts";
import { getOwnScheduled, withScheduledLock } from "./own-scheduled.ts";
import { PUBLISH_SCHEDULED_JOB } from "./publish-job.ts";
import { checkScheduleTime, withScheduleLock } from "./schedule-time.ts";

export async function rescheduleStatus(
  ctx: ServiceContext,
  accountId: string,
  id: string,
  at: Date | undefined,
): Promise<ScheduledStatus> {
  return withScheduledLock(ctx, id, async () => {
    const current = await getOwnScheduled(ctx, accountId, id);
    if (at === undefined) return current;
    return withScheduleLock(ctx, accountId, async () => {
      await checkScheduleTime(ctx, accountId, at, id);
      const jobId = await ctx.jobs.enqueue(
        PUBLISH_SCHEDULED_JOB,
        { scheduledStatusId: id },
        { runAt: at },
      );
      const moved: ScheduledStatus = { ...current, scheduledAt: at.toISOString(), jobId };
      await ctx.storage.scheduledStatuses.put(moved);
      if (current.jobId !== null) await ctx.jobs.cancel(current.jobId);
      return moved;
    });
  });
}
