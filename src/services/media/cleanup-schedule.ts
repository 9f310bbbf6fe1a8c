// The hourly "media.cleanup" job, kept in the durable queue so it survives restarts. The runner
// deletes a job's record once its handler succeeds, so a job cannot re-enqueue itself under its
// own id; instead two fixed ids take turns: the run of one schedules the other. Fixed ids make
// scheduling idempotent (a restart or a repeated run rewrites a record instead of adding one), so
// the queue never holds more than these two, and at start it is brought back to exactly one.

import { getLogger } from "@logtape/logtape";
import type { Job } from "../../domain/job.ts";
import type { ServiceContext } from "../context.ts";
import { pruneUnattachedMedia } from "./prune-unattached.ts";

const logger = getLogger(["wren", "media"]);

export const MEDIA_CLEANUP_JOB = "media.cleanup";
export const MEDIA_CLEANUP_INTERVAL_MS = 3600_000;
export const MEDIA_CLEANUP_JOB_IDS = ["media-cleanup-a", "media-cleanup-b"] as const;

async function putCleanupJob(ctx: ServiceContext, id: string, runAt: Date): Promise<void> {
  await ctx.storage.jobs.put({
    id,
    type: MEDIA_CLEANUP_JOB,
    payload: {},
    runAt: runAt.toISOString(),
    attempts: 0,
    lastError: null,
    failedAt: null,
    createdAt: ctx.clock.now().toISOString(),
  });
}

const nextRun = (ctx: ServiceContext) =>
  new Date(ctx.clock.now().getTime() + MEDIA_CLEANUP_INTERVAL_MS);

/**
 * Called when a server starts, before its runner: leaves exactly one cleanup waiting. None (a
 * first start, or the last one gave up): one an interval from now. Both (a crash came between a
 * run scheduling its successor and the runner removing the run's record): the earlier is kept,
 * so two runs never fall due together and remove each other's successor.
 */
export async function ensureMediaCleanupScheduled(ctx: ServiceContext): Promise<void> {
  const found = await Promise.all(MEDIA_CLEANUP_JOB_IDS.map((id) => ctx.storage.jobs.get(id)));
  const waiting = found
    .filter((job): job is Job => job !== undefined && job.failedAt === null)
    .sort((x, y) => Date.parse(x.runAt) - Date.parse(y.runAt));
  if (waiting.length === 0) {
    // Over a slot whose job gave up, if any: the schedule must go on.
    await putCleanupJob(ctx, MEDIA_CLEANUP_JOB_IDS[0], nextRun(ctx));
    return;
  }
  for (const extra of waiting.slice(1)) await ctx.storage.jobs.delete(extra.id);
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
  const [a, b] = MEDIA_CLEANUP_JOB_IDS;
  // A cleanup enqueued some other way (one-off) runs without touching the schedule.
  if (job.id === a || job.id === b) await putCleanupJob(ctx, job.id === a ? b : a, nextRun(ctx));
}
