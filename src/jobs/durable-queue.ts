// The JobQueue port over the storage's job records: enqueueing is one durable write, after which
// the runner is told to look again (it may be due already).

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
      ...(options.shared === undefined ? {} : { shared: options.shared }),
    };
  };
  return {
    async enqueue(type, payload, options = {}) {
      const job = jobOf(type, payload, options);
      await jobs.put(job);
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
