// The JobQueue port over the storage's job records: enqueueing is one durable write, after which
// the runner is told to look again (it may be due already).

import type { Clock } from "../domain/clock.ts";
import type { IdGenerator } from "../domain/ids.ts";
import type { JobQueue } from "../services/job-queue.ts";
import type { JobStore } from "../storage/ports.ts";

export function createDurableQueue(
  jobs: JobStore,
  clock: Clock,
  ids: IdGenerator,
  onEnqueued: (runAt?: string) => void = () => {},
): JobQueue {
  return {
    async enqueue(type, payload, options = {}) {
      const now = clock.now();
      const id = ids.next();
      const runAt = (options.runAt ?? now).toISOString();
      await jobs.put({
        id,
        type,
        payload,
        runAt,
        attempts: 0,
        lastError: null,
        failedAt: null,
        createdAt: now.toISOString(),
        ...(options.group === undefined ? {} : { group: options.group }),
        ...(options.orderingKey === undefined ? {} : { orderingKey: options.orderingKey }),
      });
      onEnqueued(runAt);
      return id;
    },
    async release(group) {
      const moved = await jobs.advanceGroup(group, clock.now().toISOString());
      if (moved > 0) onEnqueued();
      return moved;
    },
    cancel(id) {
      return jobs.delete(id);
    },
  };
}
