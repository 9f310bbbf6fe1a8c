// The JobQueue port over the storage's job records: enqueueing is one durable write, after which
// the runner is told to look again (it may be due already). Jobs enqueued in one turn of the
// event loop are written together (JobStore.putMany): a fan-out queues one delivery per inbox
// at once, which on PostgreSQL is then one statement and one commit instead of one each.

import type { Clock } from "../domain/clock.ts";
import type { IdGenerator } from "../domain/ids.ts";
import type { Job } from "../domain/job.ts";
import type { EnqueueOptions, JobQueue } from "../services/job-queue.ts";
import type { JobStore } from "../storage/ports.ts";

export function createDurableQueue(
  jobs: JobStore,
  clock: Clock,
  ids: IdGenerator,
  onEnqueued: (runAt?: string) => void = () => {},
): JobQueue {
  const jobOf = (type: string, payload: Record<string, unknown>, options: EnqueueOptions): Job => {
    const now = clock.now();
    return {
      id: options.id ?? ids.next(),
      type,
      payload,
      runAt: (options.runAt ?? now).toISOString(),
      attempts: 0,
      lastError: null,
      failedAt: null,
      createdAt: now.toISOString(),
      ...(options.group === undefined ? {} : { group: options.group }),
      ...(options.orderingKey === undefined ? {} : { orderingKey: options.orderingKey }),
    };
  };
  const store = gatherInTurn(jobs);
  return {
    async enqueue(type, payload, options = {}) {
      const job = jobOf(type, payload, options);
      await store(job);
      onEnqueued(job.runAt);
      return job.id;
    },
    async enqueueAround(type, payload, options, write) {
      const job = jobOf(type, payload, options);
      const result = await jobs.putAround(job, () => write(job.id));
      onEnqueued(job.runAt);
      return result;
    },
    async release(group) {
      const moved = await jobs.advanceGroup(group, clock.now().toISOString());
      if (moved > 0) onEnqueued();
      return moved;
    },
    cancel(id) {
      return jobs.delete(id);
    },
    retire(id) {
      return jobs.retire(id);
    },
  };
}

/**
 * `put`, with the jobs put in the same turn of the event loop (before its microtasks run)
 * written in one `putMany`; each caller's promise settles with that write.
 */
function gatherInTurn(jobs: JobStore): (job: Job) => Promise<void> {
  let gathered: { job: Job; stored: PromiseWithResolvers<void> }[] | undefined;
  const write = () => {
    const batch = gathered ?? [];
    gathered = undefined;
    const written =
      batch.length === 1 ? jobs.put(batch[0]?.job as Job) : jobs.putMany(batch.map((b) => b.job));
    written.then(
      () => {
        for (const { stored } of batch) stored.resolve();
      },
      (error: unknown) => {
        for (const { stored } of batch) stored.reject(error);
      },
    );
  };
  return (job) => {
    if (gathered === undefined) {
      gathered = [];
      queueMicrotask(write);
    }
    const stored = Promise.withResolvers<void>();
    gathered.push({ job, stored });
    return stored.promise;
  };
}
