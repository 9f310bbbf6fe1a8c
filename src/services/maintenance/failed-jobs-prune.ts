// The daily "jobs.prune_failed" job: a job that gave up after its last attempt stays in the queue
// for operators to inspect (`wren jobs`), but not for ever — a server that was unreachable for
// a month would otherwise leave thousands of dead deliveries behind. Failures older than
// FAILED_JOB_RETENTION_DAYS go, in bounded batches so one run never holds the store for long.

import { getLogger } from "@logtape/logtape";
import type { Job } from "../../domain/job.ts";
import type { ServiceContext } from "../context.ts";
import { ensureRecurringScheduled, type RecurringJob, scheduleNextRun } from "./recurring-job.ts";

const logger = getLogger(["wren", "jobs"]);

/** As long as Mastodon's Sidekiq keeps its dead jobs, near enough (it keeps six months at most). */
export const FAILED_JOB_RETENTION_DAYS = 30;
const BATCH = 500;

export const FAILED_JOBS_PRUNE_JOB: RecurringJob = {
  type: "jobs.prune_failed",
  intervalMs: 24 * 3600_000,
  ids: ["jobs-prune-failed-a", "jobs-prune-failed-b"],
};

export function ensureFailedJobsPruneScheduled(ctx: ServiceContext): Promise<void> {
  return ensureRecurringScheduled(ctx, FAILED_JOBS_PRUNE_JOB);
}

/** Removes the failures older than the retention now; returns how many. */
export async function pruneOldFailedJobs(ctx: ServiceContext): Promise<number> {
  const before = new Date(
    ctx.clock.now().getTime() - FAILED_JOB_RETENTION_DAYS * 24 * 3600_000,
  ).toISOString();
  let removed = 0;
  for (;;) {
    const batch = await ctx.storage.jobs.deleteFailedBefore(before, BATCH);
    removed += batch;
    if (batch < BATCH) return removed;
  }
}

export async function runFailedJobsPrune(ctx: ServiceContext, job: Job): Promise<void> {
  try {
    const removed = await pruneOldFailedJobs(ctx);
    if (removed > 0) logger.info("Removed {removed} jobs that failed long ago", { removed });
  } catch (error) {
    logger.error("Pruning old failed jobs failed: {error}", { error });
  }
  await scheduleNextRun(ctx, FAILED_JOBS_PRUNE_JOB, job);
}
