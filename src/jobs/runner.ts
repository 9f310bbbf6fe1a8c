// Runs due jobs from the durable queue. A job's record stays in storage until its handler
// succeeds, so a crash mid-job means it runs again after the restart (handlers are idempotent).
// Failures are retried with growing delays; after the last attempt the job is kept as failed.
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

const BATCH = 32;
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

  async function drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      const due = await jobs.due(clock.now().toISOString(), BATCH);
      if (due.length === 0) return ran;
      await Promise.all(due.map(runOne));
      ran += due.length;
    }
  }

  function runDue(): Promise<number> {
    if (running) {
      // A pass is under way: make it go round once more so new work is not missed.
      rerun = true;
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
