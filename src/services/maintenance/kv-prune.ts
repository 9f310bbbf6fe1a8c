// The daily "kv.prune" job: removes key–value entries past their expiry (remote document
// caches, idempotence marks, circuit-breaker state), which would otherwise pile up in storage
// because readers only ignore them. Daily is enough: the entries live minutes to a day, so the
// store holds about a day's worth at most. A failed run is logged, not retried: the next is.

import { getLogger } from "@logtape/logtape";
import type { Job } from "../../domain/job.ts";
import type { ServiceContext } from "../context.ts";
import { ensureRecurringScheduled, type RecurringJob, scheduleNextRun } from "./recurring-job.ts";

const logger = getLogger(["wren", "kv"]);

export const KV_PRUNE_JOB: RecurringJob = {
  type: "kv.prune",
  intervalMs: 24 * 3600_000,
  ids: ["kv-prune-a", "kv-prune-b"],
};

export function ensureKvPruneScheduled(ctx: ServiceContext): Promise<void> {
  return ensureRecurringScheduled(ctx, KV_PRUNE_JOB);
}

/** Removes the expired entries now; returns how many. */
export function pruneExpiredKv(ctx: ServiceContext): Promise<number> {
  return ctx.storage.kv.pruneExpired(ctx.clock.now().toISOString());
}

export async function runKvPrune(ctx: ServiceContext, job: Job): Promise<void> {
  try {
    const removed = await pruneExpiredKv(ctx);
    if (removed > 0) logger.debug("Removed {removed} expired key–value entries", { removed });
  } catch (error) {
    logger.error("Pruning expired key–value entries failed: {error}", { error });
  }
  await scheduleNextRun(ctx, KV_PRUNE_JOB, job);
}
