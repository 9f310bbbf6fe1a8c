// Runs due jobs from the durable queue. A job's record stays in storage until its handler
// succeeds, so a crash mid-job means it runs again after the restart (handlers are idempotent).
// Failures are retried with growing delays; after the last attempt the job is kept as failed.
// Jobs that share an ordering key run one at a time, earliest first (Job.orderingKey).
// Time comes from the Clock, so tests move it and call runDue() instead of sleeping.
//
// Several runners (processes) may share one store: each claims the jobs it runs under a lease
// (JobStore.claim), renewed while the handler runs, so no two run one job at once, and the jobs
// of a runner that died come back to the others once its leases pass (at most LEASE_MS later).
// A runner learns of jobs other processes enqueue from the store (JobStore.watch: LISTEN/NOTIFY on
// PostgreSQL) or, should a notification be lost, when it next looks (at most MAX_SLEEP_MS away).

import { randomUUID } from "node:crypto";
import { getLogger } from "@logtape/logtape";
import type { Clock } from "../domain/clock.ts";
import type { Job } from "../domain/job.ts";
import { RetryAt } from "../services/job-queue.ts";
import { jobsWork } from "../storage/done-records.ts";
import type { JobStore } from "../storage/ports.ts";

const logger = getLogger(["wren", "jobs"]);

export type JobHandler = (payload: Record<string, unknown>, job: Job) => Promise<void>;

export interface HandlerOptions {
  /** Attempts before the job is marked failed (default 8). */
  maxAttempts?: number;
}

export interface RunnerOptions {
  /** How long a claim lasts unless renewed (default LEASE_MS); tests shorten it. */
  leaseMs?: number;
}

export interface JobRunner {
  register(type: string, handler: JobHandler, options?: HandlerOptions): void;
  /** Runs every job due now (including ones that become due while running); returns how many ran. */
  runDue(): Promise<number>;
  /** Starts the timer that runs jobs when they fall due. */
  start(): void;
  /**
   * Reconsiders the next wake-up (called after an enqueue). Given the new job's due time (ISO),
   * only brings the timer forward when it is later, without asking the store.
   */
  wake(runAt?: string): void;
  /** Stops the timer and waits for running jobs. */
  stop(): Promise<void>;
}

/**
 * Jobs run at once. Most wait on I/O (a durable write, a peer's answer), so many in flight keep
 * the group commit's batches full; a pool rather than batches, so one slow job (a peer that
 * takes seconds to answer) does not hold up the next ones.
 */
export const CONCURRENCY = 64;
/**
 * A job that ends tops the pool up only once this many places are free (or none runs): a claim
 * per ended job took a handful at a time (a fan-out's 1,000 deliveries made some 150 claims on
 * PostgreSQL, each a statement walking the due rows, ADR 0064); in sixteens the claims are
 * fewer and fuller, and the pool stays three-quarters full at least. A wake-up (new jobs) still
 * looks at once.
 */
const TOP_UP_AT = CONCURRENCY / 4;
/** Longest sleep between two looks: jobs another process enqueued are found by then at worst. */
const MAX_SLEEP_MS = 60_000;
/** Wait before looking again when the store failed to answer. */
const STORE_RETRY_MS = 5_000;
/**
 * How long a claimed job is kept from other runners. Renewed every third of it while the handler
 * runs, so only a runner that stopped renewing (dead, or cut off from the store for minutes)
 * loses its jobs; then they run again elsewhere, as after a crash. Five minutes: a killed
 * worker's jobs wait that long at most, and a store outage of a minute or two costs no double run.
 */
export const LEASE_MS = 5 * 60_000;

/** Delay before retry number `attempt` (1-based): 10 s, 40 s, 2.7 min… capped at 6 h. */
export function retryDelayMs(attempt: number): number {
  return Math.min(10_000 * 4 ** (attempt - 1), 6 * 3600_000);
}

/** When a failed job runs again: when its handler asked (RetryAt), else after the backoff. */
function retryTime(error: unknown, now: Date, attempts: number): Date {
  if (error instanceof RetryAt) return new Date(Math.max(error.at.getTime(), now.getTime()));
  return new Date(now.getTime() + retryDelayMs(attempts));
}

export function createJobRunner(
  jobs: JobStore,
  clock: Clock,
  options: RunnerOptions = {},
): JobRunner {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  /** This runner's name on its claims. */
  const owner = randomUUID();
  const leaseEnd = () => new Date(clock.now().getTime() + leaseMs).toISOString();
  const handlers = new Map<string, { handler: JobHandler; maxAttempts: number }>();
  let timer: NodeJS.Timeout | undefined;
  /** When the timer fires, on the clock (ms); Infinity while none is set. */
  let timerDue = Number.POSITIVE_INFINITY;
  let started = false;
  let running: Promise<number> | undefined;
  let rerun = false;

  async function runOne(job: Job): Promise<void> {
    const entry = handlers.get(job.type);
    const attempts = job.attempts + 1;
    // Once-records the work leaves to the job's end ride its removal or rewrite (ADR 0066).
    const work = jobsWork(async () => {
      if (!entry) throw new Error(`no handler for job type "${job.type}"`);
      await entry.handler(job.payload, job);
    });
    try {
      await work.outcome;
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
      const kept = await jobs.reschedule(
        {
          ...job,
          attempts,
          lastError: message,
          runAt: giveUp ? job.runAt : retryTime(error, now, attempts).toISOString(),
          failedAt: giveUp ? now.toISOString() : null,
        },
        owner,
        work.close(),
      );
      if (!kept) lostClaim(job);
      return;
    }
    if (!(await jobs.complete(job.id, owner, work.close()))) lostClaim(job);
  }

  /**
   * The claim ended while the handler ran: its lease passed and another runner took the job (its
   * outcome is that runner's now), or the job was replaced or removed meanwhile.
   */
  function lostClaim(job: Job): void {
    logger.warn("Job {id} ({type}) was no longer this runner's when it ended; left as it is", {
      id: job.id,
      type: job.type,
    });
  }

  /** Asks the pass under way (if any) to look for due jobs now. */
  let lookNow: (() => void) | undefined;

  /**
   * Runs due jobs, up to CONCURRENCY at once, topping up as each finishes (and when woken), until
   * a look finds none due and none running. Each look claims what it takes, so neither another
   * pass nor another process can take the same jobs; the claims are renewed while they run.
   */
  function drain(): Promise<number> {
    const settled = Promise.withResolvers<number>();
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
    /**
     * Per ordering key running now, the claimed jobs of that key waiting their turn (claims come
     * earliest first). They count as taken: their leases are renewed while they wait.
     */
    const waitingByKey = new Map<string, Job[]>();
    let looking = false;
    let lookAgain = false;
    /**
     * The last look found fewer due jobs than it had places for: jobs that end need not look
     * again (it would find none) until something says there is more: a wake-up (a new job, the
     * timer of one falling due) or the pool running empty, whose look ends the pass.
     */
    let dry = false;
    let ran = 0;

    const run = async (job: Job) => {
      try {
        await runOne(job);
      } catch (error) {
        reject(error);
        return;
      } finally {
        taken.delete(job.id);
      }
      if (job.orderingKey !== undefined) {
        const next = waitingByKey.get(job.orderingKey)?.shift();
        if (next) void run(next);
        else waitingByKey.delete(job.orderingKey);
      }
      ran++;
      void fill(true);
    };
    /** Claims due jobs for the free places; `topUp` when a job ended (TOP_UP_AT, `dry`). */
    const fill = async (topUp = false): Promise<void> => {
      if (closed) return;
      if (topUp && taken.size > 0 && (dry || CONCURRENCY - taken.size < TOP_UP_AT)) return;
      if (looking) {
        lookAgain = true;
        return;
      }
      looking = true;
      try {
        do {
          lookAgain = false;
          if (taken.size >= CONCURRENCY) continue;
          const places = CONCURRENCY - taken.size;
          const claimed = await jobs.claim(clock.now().toISOString(), places, leaseEnd(), owner);
          dry = claimed.length < places;
          for (const job of claimed) {
            // Claimed again by this runner while still running here (its lease had passed):
            // the run under way finishes it.
            if (taken.has(job.id)) continue;
            taken.add(job.id);
            // The first of a key runs; later ones wait for it (Job.orderingKey).
            if (job.orderingKey !== undefined) {
              const waiting = waitingByKey.get(job.orderingKey);
              if (waiting) {
                waiting.push(job);
                continue;
              }
              waitingByKey.set(job.orderingKey, []);
            }
            void run(job);
          }
        } while (lookAgain && !closed);
      } catch (error) {
        reject(error);
      } finally {
        looking = false;
      }
      if (taken.size === 0 && !closed) resolve(ran);
    };
    // Claims are renewed on the system's timer (the lease times are on the Clock): a long job
    // keeps its claim however long it runs.
    const renewal = setInterval(() => {
      if (taken.size === 0) return;
      jobs.renew([...taken], owner, leaseEnd()).catch((error) => {
        logger.warn("Could not renew job leases: {error}", { error });
      });
    }, leaseMs / 3);
    renewal.unref();
    lookNow = () => void fill();
    void fill();
    return settled.promise.finally(() => {
      clearInterval(renewal);
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

  let scheduling = false;
  let scheduleAgain = false;
  let unwatch: (() => void) | undefined;

  /**
   * Sets the timer for when the next job falls due. Calls while one is looking fold into one
   * more look (a burst of wake-ups costs two queries, not one each). A store that cannot answer
   * (the database away) is asked again after STORE_RETRY_MS rather than never.
   */
  async function schedule(): Promise<void> {
    if (!started) return;
    if (scheduling) {
      scheduleAgain = true;
      return;
    }
    scheduling = true;
    try {
      do {
        scheduleAgain = false;
        let wait = STORE_RETRY_MS;
        try {
          const next = await jobs.nextRunAt();
          wait =
            next === null
              ? MAX_SLEEP_MS
              : Math.min(Math.max(Date.parse(next) - clock.now().getTime(), 0), MAX_SLEEP_MS);
        } catch (error) {
          logger.error("Could not look for the next job: {error}", { error });
        }
        if (!started) return;
        setTimer(wait);
      } while (scheduleAgain);
    } finally {
      scheduling = false;
    }
  }

  function setTimer(wait: number): void {
    if (timer) clearTimeout(timer);
    timerDue = clock.now().getTime() + wait;
    timer = setTimeout(() => {
      timerDue = Number.POSITIVE_INFINITY;
      runDue().catch((error) => logger.error("Job pass failed: {error}", { error }));
    }, wait);
    timer.unref();
  }

  /**
   * A job was added that falls due at `runAt`: the timer moves forward if it would fire later,
   * with no query (most new jobs are records of events, due a lease ahead, after the timer). A
   * look under way may have missed the job: it goes round once more, as for any wake-up.
   */
  function wakeFor(runAt: string | undefined): void {
    if (!started) return;
    const at = runAt === undefined ? Number.NaN : Date.parse(runAt);
    if (Number.isNaN(at) || scheduling) {
      void schedule();
      return;
    }
    if (at >= timerDue) return;
    setTimer(Math.min(Math.max(at - clock.now().getTime(), 0), MAX_SLEEP_MS));
  }

  return {
    register(type, handler, options = {}) {
      handlers.set(type, { handler, maxAttempts: options.maxAttempts ?? 8 });
    },
    runDue,
    start() {
      started = true;
      // Jobs enqueued by other processes: look at once rather than at the next poll.
      unwatch ??= jobs.watch(wakeFor);
      void schedule();
    },
    wake: wakeFor,
    async stop() {
      started = false;
      unwatch?.();
      unwatch = undefined;
      if (timer) clearTimeout(timer);
      timerDue = Number.POSITIVE_INFINITY;
      await running;
    },
  };
}
