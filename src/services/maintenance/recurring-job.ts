// A job that runs every interval, kept in the durable queue so it survives restarts. The runner
// deletes a job's record once its handler succeeds, so a job cannot re-enqueue itself under its
// own id; instead two fixed ids take turns: the run of one schedules the other. Fixed ids make
// scheduling idempotent (a restart or a repeated run rewrites a record instead of adding one), so
// the queue never holds more than these two, and at start it is brought back to exactly one.

import type { Job } from "../../domain/job.ts";
import type { ServiceContext } from "../context.ts";

export interface RecurringJob {
  type: string;
  intervalMs: number;
  /**
   * When the run put because none is waiting (a first start, or the last run gave up) falls
   * due, from now; the interval if not given.
   */
  firstDelayMs?: number;
  /** The two ids that take turns. */
  ids: readonly [string, string];
}

async function putRun(
  ctx: ServiceContext,
  spec: RecurringJob,
  id: string,
  delayMs = spec.intervalMs,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.storage.jobs.put({
    id,
    type: spec.type,
    payload: {},
    runAt: new Date(now.getTime() + delayMs).toISOString(),
    attempts: 0,
    lastError: null,
    failedAt: null,
    createdAt: now.toISOString(),
  });
}

/**
 * Called when a server starts, before its runner: leaves exactly one run waiting. None (a first
 * start, or the last one gave up): one `firstDelayMs` (or an interval) from now. Both (a crash
 * came between a run scheduling its successor and the runner removing the run's record): the
 * earlier is kept, so two runs never fall due together and remove each other's successor.
 */
export async function ensureRecurringScheduled(
  ctx: ServiceContext,
  spec: RecurringJob,
): Promise<void> {
  const found = await Promise.all(spec.ids.map((id) => ctx.storage.jobs.get(id)));
  const waiting = found
    .filter((job): job is Job => job !== undefined && job.failedAt === null)
    .sort((x, y) => Date.parse(x.runAt) - Date.parse(y.runAt));
  if (waiting.length === 0) {
    // Over a slot whose job gave up, if any: the schedule must go on.
    await putRun(ctx, spec, spec.ids[0], spec.firstDelayMs);
    return;
  }
  // With other processes on the storage, a due run may be running there right now and have put
  // its successor already: removing that successor would end the schedule when the run completes.
  // The due run puts the successor again as it ends, so keeping both is safe.
  const earliest = waiting[0] as Job;
  const shared = !ctx.storage.coordination.exclusive;
  if (shared && Date.parse(earliest.runAt) <= ctx.clock.now().getTime()) return;
  for (const extra of waiting.slice(1)) await ctx.storage.jobs.delete(extra.id);
}

/** Called at the end of a run: schedules the other id. A run enqueued some other way (one-off)
 * leaves the schedule alone. */
export async function scheduleNextRun(
  ctx: ServiceContext,
  spec: RecurringJob,
  job: Job,
): Promise<void> {
  const [a, b] = spec.ids;
  if (job.id === a || job.id === b) await putRun(ctx, spec, job.id === a ? b : a);
}
