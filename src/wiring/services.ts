// The services of a process that runs jobs (a server, a worker, the tests): the use cases'
// context (./service-context.ts) and a job runner with every job type's handler, which the
// context's durable queue wakes.

import type { Config } from "../config/schema.ts";
import { type Clock, systemClock } from "../domain/clock.ts";
import { registerJobHandlers } from "../jobs/handlers.ts";
import { createJobRunner, type JobRunner } from "../jobs/runner.ts";
import type { ServiceContext } from "../services/context.ts";
import type { Storage } from "../storage/ports.ts";
import { createServiceContext } from "./service-context.ts";

export interface ServicesOptions {
  clock?: Clock;
}

export interface Services {
  ctx: ServiceContext;
  /** Runs the durable queue's jobs; started only by a serving process. */
  jobs: JobRunner;
}

/** Builds the use cases' context over an open storage, with its listeners and job handlers. */
export function createServices(
  config: Config,
  storage: Storage,
  options: ServicesOptions = {},
): Services {
  const clock = options.clock ?? systemClock;
  const jobs = createJobRunner(storage.jobs, clock, { leaseMs: config.jobLeaseSeconds * 1000 });
  const ctx = createServiceContext(config, storage, { clock, wake: (runAt) => jobs.wake(runAt) });
  registerJobHandlers(jobs, ctx);
  return { ctx, jobs };
}
