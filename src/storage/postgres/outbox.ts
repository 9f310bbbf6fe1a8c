// A job carried into the write it goes with (JobStore.putAround): the record of an event
// (services/events.ts) must be durable no later than the write it announces, which cost a
// statement and a round trip of its own before the write. Here the job rides along in the
// write's own statement or transaction when that write is one that can take it (a status put,
// an edge put: `take`), so both commit together. Any other store call made while the job still
// waits (a read, a write that cannot take it) first stores the job alone, so the job is never
// later than a change; while a write that took it is under way, every other store call of the
// same write waits for it, and stores the job alone should that write fail. A write that made no
// store call gets the job stored after it (it changed nothing the job could be late for).
// ADR 0033.

import { AsyncLocalStorage } from "node:async_hooks";
import type { Job } from "../../domain/job.ts";

interface Carried {
  job: Job;
  /** Once a write took the job or it was stored alone: true once stored, false if that failed. */
  stored: Promise<boolean> | undefined;
}

export interface Outbox {
  /** Runs `write` carrying `job` (JobStore.putAround). */
  around<T>(job: Job, write: () => Promise<T>): Promise<T>;
  /**
   * For a write that can store the carried job in its own statement or transaction: the job,
   * which the caller must then store with its change, reporting the statement to `settle`.
   * Undefined when no job waits (any earlier one is stored by then).
   */
  take(): Promise<{ job: Job; settle(statement: Promise<unknown>): void } | undefined>;
  /** Before any other store call: the carried job, if any, is stored (alone if need be). */
  before(): Promise<void> | undefined;
}

/** `putAlone` stores a job in a statement of its own. */
export function createOutbox(putAlone: (job: Job) => Promise<void>): Outbox {
  const scope = new AsyncLocalStorage<Carried>();

  /** Until the carried job is stored: by the write that took it, else alone. */
  async function stored(carried: Carried): Promise<void> {
    for (;;) {
      carried.stored ??= putAlone(carried.job).then(() => true);
      const pending = carried.stored;
      if (await pending) return;
      // The write that took it failed: nothing was stored; the next one stores it alone.
      if (carried.stored === pending) carried.stored = undefined;
    }
  }

  return {
    async around(job, write) {
      // A job carried by an enclosing write goes first.
      const outer = scope.getStore();
      if (outer) await stored(outer);
      const carried: Carried = { job, stored: undefined };
      const result = await scope.run(carried, write);
      await stored(carried);
      return result;
    },
    async take() {
      const carried = scope.getStore();
      if (carried === undefined) return undefined;
      if (carried.stored !== undefined) {
        await stored(carried);
        return undefined;
      }
      let settle: (statement: Promise<unknown>) => void = () => {};
      carried.stored = new Promise<boolean>((resolve) => {
        settle = (statement) =>
          statement.then(
            () => resolve(true),
            () => resolve(false),
          );
      });
      return { job: carried.job, settle };
    },
    before() {
      const carried = scope.getStore();
      return carried === undefined ? undefined : stored(carried);
    },
  };
}
