// The hourly "media.cleanup" job, kept in the durable queue so it survives restarts (the two
// alternating ids of maintenance/recurring-job.ts).

import { getLogger } from "@logtape/logtape";
import type { Job } from "../../domain/job.ts";
import type { ServiceContext } from "../context.ts";
import {
  ensureRecurringScheduled,
  type RecurringJob,
  scheduleNextRun,
} from "../maintenance/recurring-job.ts";
import { pruneUnattachedMedia } from "./prune-unattached.ts";

const logger = getLogger(["wren", "media"]);

export const MEDIA_CLEANUP_JOB = "media.cleanup";
export const MEDIA_CLEANUP_INTERVAL_MS = 3600_000;
export const MEDIA_CLEANUP_JOB_IDS = ["media-cleanup-a", "media-cleanup-b"] as const;

const SCHEDULE: RecurringJob = {
  type: MEDIA_CLEANUP_JOB,
  intervalMs: MEDIA_CLEANUP_INTERVAL_MS,
  ids: MEDIA_CLEANUP_JOB_IDS,
};

/** Called when a server starts, before its runner: leaves exactly one cleanup waiting. */
export function ensureMediaCleanupScheduled(ctx: ServiceContext): Promise<void> {
  return ensureRecurringScheduled(ctx, SCHEDULE);
}

/**
 * The job handler. A failed cleanup is logged, not retried: the next hourly run is the retry, and
 * the schedule never stops on a file host that is down for a while.
 */
export async function runMediaCleanup(ctx: ServiceContext, job: Job): Promise<void> {
  try {
    const summary = await pruneUnattachedMedia(ctx);
    if (summary.removed > 0 || summary.failed > 0) {
      logger.info("Media cleanup removed {removed} unattached uploads ({failed} failed)", {
        ...summary,
      });
    }
  } catch (error) {
    logger.error("Media cleanup failed: {error}", { error });
  }
  // A cleanup enqueued some other way (one-off) runs without touching the schedule.
  await scheduleNextRun(ctx, SCHEDULE, job);
}
