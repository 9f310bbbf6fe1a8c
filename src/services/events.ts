// The event bus: use cases publish domain events for their writes; named listeners
// (notifications, conversations, media purge, the federation outbox) react. Side effects are
// durable (ADR 0013): every event is first recorded as a job on the durable queue, then its
// listeners run inline, so a request's side effects are normally done when it answers. On success
// the record is removed; a listener that fails is retried later by the job runner, and only the
// listeners that still owe work run again. A crash at any point after the record leaves the job
// to run after the restart, so listeners must be idempotent.
//
// The record is a lease: its run time lies EVENT_LEASE_MS (or the configured lease) ahead, so the runner does not take it
// while the inline run is under way. After a crash it runs once the lease is over (json-file:
// at start, see releaseLeasedEvents, since no other process can hold the directory).

import { getLogger } from "@logtape/logtape";
import type { Clock } from "../domain/clock.ts";
import type { DomainEvent } from "../domain/events.ts";
import type { JobQueue } from "./job-queue.ts";

const logger = getLogger(["wren", "events"]);

/** The job that runs a recorded event's listeners. */
export const EVENT_JOB = "events.run";
/** The group of recorded events whose inline run may still be under way. */
export const EVENT_LEASE_GROUP = "events.lease";
/** How long the inline run has before the job runner takes the event over (default). */
export const EVENT_LEASE_MS = 60_000;
/** When the listeners that failed inline are first tried again (then the runner's backoff). */
export const EVENT_RETRY_MS = 10_000;

export type EventListener = (event: DomainEvent) => Promise<void>;

/**
 * What an event recorded before its write (`EventBus.intend`) is after a crash: the event to
 * run, brought up to date from storage, or undefined when the write never happened (or was
 * undone since) and there is nothing to do.
 */
export type ConfirmEvent = (event: DomainEvent) => Promise<DomainEvent | undefined>;

/** An event recorded before the write it announces. */
export interface PendingEvent {
  /**
   * The write is done: run the listeners (as publish does after its record), with `final` when
   * the write itself produced what the event tells (a poll's new counts). After a crash the
   * confirmation brings the recorded event up to date instead.
   */
  published(final?: DomainEvent): Promise<void>;
  /** The write failed: drop the record. */
  abandon(): Promise<void>;
}

export interface EventBus {
  /**
   * Adds a listener, or replaces the one of that name; the name is how a recorded event
   * remembers what still has to run.
   */
  subscribe(name: string, listener: EventListener): void;
  /**
   * For an event whose write is stored: records it durably, then runs the listeners; failures
   * are left to the job runner. Never rejects: a stored write is answered as stored, so when the
   * record itself cannot be written (a full disk) the listeners are tried once, not durably.
   */
  publish(event: DomainEvent): Promise<void>;
  /**
   * Records the event before its write, which closes the window in which a crash between the
   * write and the record loses the side effects; the event's type must be one `confirm` knows.
   * Rejects when the record cannot be written: then the write must not happen either.
   */
  intend(event: DomainEvent): Promise<PendingEvent>;
  /**
   * `intend` and the write in one: the record is stored no later than the write's first change,
   * with it in one transaction where the storage can (JobQueue.enqueueAround, ADR 0033). When
   * the write fails, the record is dropped and the failure rethrown.
   */
  intendAround<T>(
    event: DomainEvent,
    write: () => Promise<T>,
  ): Promise<{ pending: PendingEvent; result: T }>;
  /** The EVENT_JOB handler: runs the listeners a recorded event still owes. */
  runRecorded(payload: Record<string, unknown>): Promise<void>;
  /** The listeners' names in the order they run: what a new record owes. */
  listenerNames(): string[];
}

/** What an EVENT_JOB carries. */
export interface RecordedEvent {
  event: DomainEvent;
  /** The listeners that have not yet succeeded on this event. */
  listeners: string[];
  /** Recorded before its write: confirm it happened before running anything. */
  intent?: true;
}

export interface EventBusOptions {
  jobs: JobQueue;
  clock: Clock;
  /** Confirms intents recorded before their write (default: events that need no check). */
  confirm?: ConfirmEvent;
  /** How long the inline run has (default EVENT_LEASE_MS; WREN_EVENT_LEASE_SECONDS). */
  leaseMs?: number;
  /**
   * What the record of an intent holds (default: the whole event): no less than `confirm`
   * needs to rebuild the event from storage, since only the confirmed event ever runs.
   */
  intentRecord?: (event: DomainEvent) => DomainEvent;
}

function decode(payload: Record<string, unknown>): RecordedEvent | undefined {
  const { event, listeners, intent } = payload;
  if (
    typeof event !== "object" ||
    event === null ||
    typeof (event as DomainEvent).type !== "string"
  )
    return undefined;
  if (!Array.isArray(listeners) || !listeners.every((name) => typeof name === "string"))
    return undefined;
  return { event: event as DomainEvent, listeners, ...(intent === true ? { intent } : {}) };
}

export function createEventBus(options: EventBusOptions): EventBus {
  const { jobs, clock } = options;
  const leaseMs = options.leaseMs ?? EVENT_LEASE_MS;
  const confirm = options.confirm ?? (async (event: DomainEvent) => event);
  const intentRecord = options.intentRecord ?? ((event: DomainEvent) => event);
  const listeners = new Map<string, EventListener>();

  const after = (ms: number) => new Date(clock.now().getTime() + ms);

  function recordOf(event: DomainEvent, intent: boolean): Record<string, unknown> {
    const payload: RecordedEvent = {
      event: intent ? intentRecord(event) : event,
      listeners: [...listeners.keys()],
    };
    if (intent) payload.intent = true;
    // A copy through JSON: what runs after a crash is what was written, never a live object.
    return JSON.parse(JSON.stringify(payload));
  }
  const leaseOptions = () => ({ runAt: after(leaseMs), group: EVENT_LEASE_GROUP });

  function record(event: DomainEvent, intent: boolean): Promise<string> {
    return jobs.enqueue(EVENT_JOB, recordOf(event, intent), leaseOptions());
  }

  function pendingOf(id: string, event: DomainEvent): PendingEvent {
    return {
      published: (final) => settle(id, final ?? event),
      abandon: async () => {
        await jobs.cancel(id);
      },
    };
  }

  /** Runs the named listeners in order; returns the names of those that failed. */
  async function run(event: DomainEvent, names: readonly string[]): Promise<string[]> {
    const failed: string[] = [];
    for (const name of names) {
      const listener = listeners.get(name);
      try {
        if (!listener) throw new Error(`no listener "${name}" in this process`);
        await listener(event);
      } catch (error) {
        logger.warn("Listener {name} failed on {type}, to be retried: {error}", {
          name,
          type: event.type,
          error,
        });
        failed.push(name);
      }
    }
    return failed;
  }

  /** Leaves what failed to the runner, then drops the lease; the action stands either way. */
  async function settle(leaseId: string, event: DomainEvent): Promise<void> {
    const failed = await run(event, [...listeners.keys()]);
    try {
      // The retry is written before the lease goes: a crash between them re-runs every listener
      // after the lease (idempotent), never none.
      if (failed.length > 0) await retryLater(event, failed);
      // Maybe a moment later, in one statement with other requests' records (ADR 0043): should
      // the process end first, the lease runs every listener again once over (idempotent).
      await jobs.retire(leaseId);
    } catch (error) {
      // The lease stays and runs every listener once it is over.
      logger.error("Could not settle the record of {type}: {error}", { type: event.type, error });
    }
  }

  function retryLater(event: DomainEvent, names: string[]): Promise<string> {
    const payload: RecordedEvent = { event, listeners: names };
    return jobs.enqueue(EVENT_JOB, JSON.parse(JSON.stringify(payload)), {
      runAt: after(EVENT_RETRY_MS),
    });
  }

  return {
    subscribe(name, listener) {
      // One listener per name: subscribing again replaces it (a second federation built over
      // the same services, as some tests do, must not send everything twice).
      listeners.set(name, listener);
    },
    async publish(event) {
      if (listeners.size === 0) return;
      let leaseId: string;
      try {
        leaseId = await record(event, false);
      } catch (error) {
        // The write is stored and must be answered as such (ADR 0010); its side effects are
        // tried once, as before durable events, and lost if they fail too (ADR 0013).
        logger.error("Could not record {type}; its side effects are not durable: {error}", {
          type: event.type,
          error,
        });
        await run(event, [...listeners.keys()]);
        return;
      }
      await settle(leaseId, event);
    },
    async intend(event) {
      if (listeners.size === 0) return { published: async () => {}, abandon: async () => {} };
      return pendingOf(await record(event, true), event);
    },
    async intendAround(event, write) {
      if (listeners.size === 0) {
        const result = await write();
        return { pending: { published: async () => {}, abandon: async () => {} }, result };
      }
      let id: string | undefined;
      try {
        const result = await jobs.enqueueAround(
          EVENT_JOB,
          recordOf(event, true),
          leaseOptions(),
          (jobId) => {
            id = jobId;
            return write();
          },
        );
        return { pending: pendingOf(id as string, event), result };
      } catch (error) {
        // Left behind, the record would only find the write missing after its lease.
        if (id !== undefined) await jobs.cancel(id).catch(() => {});
        throw error;
      }
    },
    listenerNames: () => [...listeners.keys()],
    async runRecorded(payload) {
      const recorded = decode(payload);
      // A payload that can never run is logged and dropped rather than retried for days.
      if (!recorded) {
        logger.error("Dropping an unreadable recorded event: {payload}", { payload });
        return;
      }
      const event = recorded.intent ? await confirm(recorded.event) : recorded.event;
      if (!event) return;
      const failed = await run(event, recorded.listeners);
      if (failed.length === 0) return;
      // Nothing succeeded: the runner retries this same job with its backoff (and keeps it as
      // failed after the last attempt). Some did: only the others are owed, in a new job.
      if (failed.length === recorded.listeners.length) {
        throw new Error(`listeners failed on ${event.type}: ${failed.join(", ")}`);
      }
      await retryLater(event, failed);
    },
  };
}

/**
 * Records `event` before `write` (EventBus.intend), runs the listeners once it is done, and drops
 * the record when it fails. For writes whose event type confirm-event.ts can check.
 */
export async function publishAround<T>(
  events: EventBus,
  event: DomainEvent,
  write: () => Promise<T>,
): Promise<T> {
  const { pending, result } = await events.intendAround(event, write);
  await pending.published();
  return result;
}

/**
 * For writes that may turn out to change nothing (a delete that finds the edge already gone):
 * records `event` before `write`, runs the listeners when it reports a change, and drops the
 * record when it reports none or fails. Returns what `write` reported.
 */
export async function publishIf(
  events: EventBus,
  event: DomainEvent,
  write: () => Promise<boolean>,
): Promise<boolean> {
  const { pending, result: changed } = await events.intendAround(event, write);
  if (changed) await pending.published();
  // Left behind, the record finds on confirmation what storage says; nothing to fail here.
  else await pending.abandon().catch(() => {});
  return changed;
}

/**
 * publishAround for a write that announces several events at once (a block ends follows and
 * requests): every record is written before the write, the listeners run in the given order.
 */
export async function publishAllAround<T>(
  events: EventBus,
  list: readonly DomainEvent[],
  write: () => Promise<T>,
): Promise<T> {
  const pending: PendingEvent[] = [];
  try {
    for (const event of list) pending.push(await events.intend(event));
  } catch (error) {
    for (const p of pending) await p.abandon().catch(() => {});
    throw error;
  }
  let result: T;
  try {
    result = await write();
  } catch (error) {
    for (const p of pending) await p.abandon().catch(() => {});
    throw error;
  }
  for (const p of pending) await p.published();
  return result;
}

/**
 * Makes every leased event due now. Only for a process that knows no other one can be running
 * their inline part (json-file: the data directory's lock), at start: those leases belong to a
 * process that died.
 */
export function releaseLeasedEvents(jobs: JobQueue): Promise<number> {
  return jobs.release(EVENT_LEASE_GROUP);
}
