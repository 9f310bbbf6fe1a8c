// Fedify's MessageQueue on Wren's durable job queue: every fan-out, delivery and inbox task is
// a job record, so queued work survives crashes and restarts (Fedify's in-process queue would
// lose it). Jobs of this type are run by the job runner, which hands fan-out and inbox messages
// back to Fedify (`processQueuedTask`) and sends deliveries itself (outbox/deliver-message.ts);
// both re-enqueue a failed one with a delay from the retry policy, which becomes the job's run
// time on Wren's clock. Deliveries that
// Fedify's circuit breaker holds are scheduled and grouped by outbox/held-deliveries.ts.

import type { MessageQueue, MessageQueueEnqueueOptions } from "@fedify/fedify";
import type { Clock } from "../domain/clock.ts";
import type { EnqueueOptions, JobQueue } from "../services/job-queue.ts";
import type { HeldDeliveries } from "./outbox/held-deliveries.ts";

export const FEDERATION_TASK_JOB = "federation.task";

function delayMs(options: MessageQueueEnqueueOptions | undefined): number {
  return options?.delay?.total({ unit: "millisecond" }) ?? 0;
}

/** The job's run time and, when Fedify gave one, its ordering key (one at a time, in order). */
function jobOptions(
  clock: Clock,
  ms: number,
  options: MessageQueueEnqueueOptions | undefined,
): EnqueueOptions {
  return {
    ...(ms > 0 ? { runAt: new Date(clock.now().getTime() + ms) } : {}),
    ...(options?.orderingKey === undefined ? {} : { orderingKey: options.orderingKey }),
  };
}

export function createJobMessageQueue(
  jobs: JobQueue,
  clock: Clock,
  held?: HeldDeliveries,
): MessageQueue {
  return {
    // Fedify retries failed deliveries itself (OUTBOX_RETRY_POLICY), re-enqueueing with a delay.
    nativeRetrial: false,
    async enqueue(message, options) {
      const hold = held?.schedule(message, delayMs(options));
      if (hold) {
        await jobs.enqueue(
          FEDERATION_TASK_JOB,
          { message },
          { ...jobOptions(clock, hold.waitMs, options), group: hold.group },
        );
        await held?.queued(message);
        return;
      }
      await jobs.enqueue(
        FEDERATION_TASK_JOB,
        { message },
        jobOptions(clock, delayMs(options), options),
      );
    },
    async enqueueMany(messages, options) {
      const at = jobOptions(clock, delayMs(options), options);
      // A fan-out queues one delivery per inbox: written together, they share group commits
      // instead of each waiting for the previous one's fsync.
      await Promise.all(
        messages.map((message) => jobs.enqueue(FEDERATION_TASK_JOB, { message }, at)),
      );
    },
    // Never called: the queue is started manually (never), and the job runner delivers tasks
    // through processQueuedTask. Resolves when asked to stop, as the interface expects.
    listen(_handler, options = {}) {
      return new Promise<void>((resolve) => {
        if (options.signal?.aborted) resolve();
        options.signal?.addEventListener("abort", () => resolve(), { once: true });
      });
    },
  };
}
