// Runs due jobs from the durable queue. A job's record stays in storage until its handler
// succeeds, so a crash mid-job means it runs again after the restart (handlers are idempotent).
// Failures are retried with growing delays; after the last attempt the job is kept as failed.
// Jobs that share an ordering key run one at a time, earliest first (Job.orderingKey).
// Time comes from the Clock, so tests move it and call runDue() instead of sleeping.

import { getLogger } from "@logtape/logtape";
import type { Clock } from "../domain/clock.ts";
import type { Job } from "../domain/job.ts";
import type { JobStore } from "../storage/ports.ts";

const logger = getLogger(["wren", "jobs"]);

export type JobHandler = (payload: Record<string, unknown>, job: Job) => Promise<void>;

export interface HandlerOptions {
  /** Attempts before the job is marked failed (default 8). */
  maxAttempts?: number;
}

export interface JobRunner {
  register(type: string, handler: JobHandler, options?: HandlerOptions): void;
  /** Runs every job due now (including ones that become due while running); returns how many ran. */
  runDue(): Promise<number>;
  /** Starts the timer that runs jobs when they fall due. */
  start(): void;
  /** Reconsiders the next wake-up (called after an enqueue). */
  wake(): void;
  /** Stops the timer and waits for running jobs. */
  stop(): Promise<void>;
}

/**
 * Jobs run at once. Most wait on I/O (a durable write, a peer's answer), so many in flight keep
 * the group commit's batches full; a pool rather than batches, so one slow job (a peer that
 * takes seconds to answer) does not hold up the next ones.
 */
export const CONCURRENCY = 64;
const MAX_SLEEP_MS = 60_000;

/** Delay before retry number `attempt` (1-based): 10 s, 40 s, 2.7 min… capped at 6 h. */
export function retryDelayMs(attempt: number): number {
  return Math.min(10_000 * 4 ** (attempt - 1), 6 * 3600_000);
}

export function createJobRunner(jobs: JobStore, clock: Clock): JobRunner {
  const handlers = new Map<string, { handler: JobHandler; maxAttempts: number }>();
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let running: Promise<number> | undefined;
  let rerun = false;

  async function runOne(job: Job): Promise<void> {
    const entry = handlers.get(job.type);
    const attempts = job.attempts + 1;
    try {
      if (!entry) throw new Error(`no handler for job type "${job.type}"`);
      await entry.handler(job.payload, job);
      await jobs.delete(job.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const now = clock.now();
      const giveUp = !entry || attempts >= entry.maxAttempts;
      logger.warn("Job {id} ({type}) failed on attempt {attempts}: {message}", {
        id: job.id,
        type: job.type,
        attempts,
        message,
      });
      await jobs.put({
        ...job,
        attempts,
        lastError: message,
        runAt: giveUp ? job.runAt : new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
        failedAt: giveUp ? now.toISOString() : null,
      });
    }
  }

  /** Asks the pass under way (if any) to look for due jobs now. */
  let lookNow: (() => void) | undefined;

  /**
   * Runs due jobs, up to CONCURRENCY at once, topping up as each finishes (and when woken), until
   * a look finds none due and none running. A job stays in the store, and in due()'s answer,
   * until done: the ones taken are skipped. A job that finishes while a look is under way may
   * still be in that look's answer, so it is left out too (once runOne returns, the job's
   * removal or rescheduling is durable and the store no longer lists it as due).
   */
  function drain(): Promise<number> {
    const settled = Promise.withResolvers<number>();
    // Once settled the pass starts nothing more: a later pass could take the same jobs.
    let closed = false;
    const resolve = (ran: number) => {
      closed = true;
      settled.resolve(ran);
    };
    const reject = (error: unknown) => {
      closed = true;
      settled.reject(error);
    };
    const taken = new Set<string>();
    /** Ordering keys of the jobs running now: a later job with one of them waits its turn. */
    const busyKeys = new Set<string>();
    let finishedMeanwhile: Set<string> | undefined;
    let looking = false;
    let lookAgain = false;
    let ran = 0;

    const run = async (job: Job) => {
      try {
        await runOne(job);
      } catch (error) {
        reject(error);
        return;
      }
      taken.delete(job.id);
      if (job.orderingKey !== undefined) busyKeys.delete(job.orderingKey);
      finishedMeanwhile?.add(job.id);
      ran++;
      void fill();
    };
    const fill = async (): Promise<void> => {
      if (closed) return;
      if (looking) {
        lookAgain = true;
        return;
      }
      looking = true;
      try {
        do {
          lookAgain = false;
          if (taken.size >= CONCURRENCY) continue;
          const finished = new Set<string>();
          finishedMeanwhile = finished;
          const due = await jobs.due(clock.now().toISOString(), taken.size + CONCURRENCY);
          finishedMeanwhile = undefined;
          for (const job of due) {
            if (closed || taken.size >= CONCURRENCY) break;
            if (taken.has(job.id) || finished.has(job.id)) continue;
            // Due jobs come earliest first, so the first of a key runs and the rest wait for it.
            if (job.orderingKey !== undefined) {
              if (busyKeys.has(job.orderingKey)) continue;
              busyKeys.add(job.orderingKey);
            }
            taken.add(job.id);
            void run(job);
          }
        } while (lookAgain);
      } catch (error) {
        reject(error);
      } finally {
        looking = false;
      }
      if (taken.size === 0) resolve(ran);
    };
    lookNow = () => void fill();
    void fill();
    return settled.promise.finally(() => {
      lookNow = undefined;
    });
  }

  function runDue(): Promise<number> {
    if (running) {
      // A pass is under way: it looks for the new work now, and goes round once more at the end
      // so nothing is missed.
      rerun = true;
      lookNow?.();
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        rerun = false;
        total += await drain();
      } while (rerun);
      return total;
    })().finally(() => {
      running = undefined;
      schedule();
    });
    return running;
  }

  async function schedule(): Promise<void> {
    if (!started) return;
    if (timer) clearTimeout(timer);
    const next = await jobs.nextRunAt();
    if (!started) return;
    const wait =
      next === null
        ? MAX_SLEEP_MS
        : Math.min(Math.max(Date.parse(next) - clock.now().getTime(), 0), MAX_SLEEP_MS);
    timer = setTimeout(() => {
      runDue().catch((error) => logger.error("Job pass failed: {error}", { error }));
    }, wait);
    timer.unref();
  }

  return {
    register(type, handler, options = {}) {
      handlers.set(type, { handler, maxAttempts: options.maxAttempts ?? 8 });
    },
    runDue,
    start() {
      started = true;
      void schedule();
    },
    wake() {
      void schedule();
    },
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
