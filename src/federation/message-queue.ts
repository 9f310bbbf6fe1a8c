// Fedify's MessageQueue on Wren's durable job queue: every fan-out, delivery and inbox task is
// a job record, so queued work survives crashes and restarts (Fedify's in-process queue would
// lose it). Jobs of this type are run by the job runner, which hands fan-out and inbox messages
// back to Fedify (`processQueuedTask`) and sends deliveries itself (outbox/deliver-message.ts);
// both re-enqueue a failed one with a delay from the retry policy, which becomes the job's run
// time on Wren's clock. Deliveries that
// Fedify's circuit breaker holds are scheduled and grouped by outbox/held-deliveries.ts.
//
// A fan-out's deliveries carry the same activity and sender's keys (8 of each job's 9 kB): a
// delivery's first try is queued with those two as the payload's `shared` part, named per
// activity, which the storage may keep once per fan-out (Job.shared, ADR 0067). Retries and held
// deliveries are queued whole, as are the other messages.

import { randomUUID } from "node:crypto";
import type { Message, MessageQueue, MessageQueueEnqueueOptions } from "@fedify/fedify";
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

/**
 * The message a queued federation job carries: whole, or (a delivery's first try, ADR 0067) its
 * own fields and the shared activity and keys put back together.
 */
export function queuedMessage(payload: Record<string, unknown>): Message {
  const message = payload.message as Message;
  const shared = payload.shared as Record<string, unknown> | undefined;
  return shared === undefined ? message : ({ ...message, ...shared } as Message);
}

/** Names each fan-out's activity, as Fedify hands the same object to each of its deliveries. */
function sharedParts() {
  const names = new WeakMap<object, string>();
  return (message: Message): { payload: Record<string, unknown>; shared?: string } => {
    if (message.type !== "outbox" || message.attempt !== 0 || message.circuitHeld) {
      return { payload: { message } };
    }
    const { activity, keys, ...own } = message;
    if (typeof activity !== "object" || activity === null) return { payload: { message } };
    let name = names.get(activity);
    if (name === undefined) {
      name = randomUUID();
      names.set(activity, name);
    }
    return { payload: { message: own, shared: { activity, keys } }, shared: name };
  };
}

export function createJobMessageQueue(
  jobs: JobQueue,
  clock: Clock,
  held?: HeldDeliveries,
): MessageQueue {
  const split = sharedParts();
  const put = (message: Message, options: EnqueueOptions) => {
    const { payload, shared } = split(message);
    return jobs.enqueue(
      FEDERATION_TASK_JOB,
      payload,
      shared === undefined ? options : { ...options, shared },
    );
  };
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
      await put(message, jobOptions(clock, delayMs(options), options));
    },
    async enqueueMany(messages, options) {
      const at = jobOptions(clock, delayMs(options), options);
      // A fan-out queues one delivery per inbox: written together, they share group commits
      // instead of each waiting for the previous one's fsync.
      await Promise.all(messages.map((message) => put(message, at)));
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
