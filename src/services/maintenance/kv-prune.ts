// The daily "kv.prune" job: removes key–value entries past their expiry (remote document
// caches, idempotence marks, circuit-breaker state), which would otherwise pile up in storage
// because readers only ignore them. Daily is enough: the entries live minutes to a day, so the
// store holds about a day's worth at most. The same run removes the records of CSV imports
// finished a week ago and the account archives past their week (record and file). A failed run
// is logged, not retried: the next is.

import { getLogger } from "@logtape/logtape";
import type { Job } from "../../domain/job.ts";
import { pruneExpiredArchives } from "../archives/archive-records.ts";
import type { ServiceContext } from "../context.ts";
import { pruneFinishedImports } from "../imports/import-records.ts";
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

/** Removes the expired entries now (finished imports and archives first); returns how many. */
export async function pruneExpiredKv(ctx: ServiceContext): Promise<number> {
  const imports = await pruneFinishedImports(ctx);
  const archives = await pruneExpiredArchives(ctx);
  return imports + archives + (await ctx.storage.kv.pruneExpired(ctx.clock.now().toISOString()));
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
