// Deliveries held while a server is down, and their release when it answers again.
//
// Fedify's circuit breaker (configured in federation.ts) stops trying a server after repeated
// failures and re-queues its deliveries as "held". Left to itself it re-queues every held
// delivery to one fixed probe time (30 minutes by default), then looks again every few seconds
// while the probe is out, and once the probe succeeds the others still wait for their next look.
// Wren schedules held deliveries itself instead, when Fedify hands them to the queue:
//
// - a held delivery looks again after as long as it has been held (first after the first retry
//   delay, then 2×, 4×… at most 12 hours apart), so a server down for a minute is tried again
//   about a minute later, and one down for days costs about 16 looks per delivery;
// - whichever look (or new delivery) comes first after the probe delay is Fedify's probe;
// - every held delivery and pending retry of a server is in one job group, which is made due at
//   once when the circuit closes (a probe got an answer): nothing waits for its own next look.
//
// Held deliveries are dropped (and logged, outbox/failures.ts) when the hold reaches
// HELD_DELIVERY_TTL: about as patient as Mastodon.

import { type KvStore, type Message, parseCircuitBreakerKvState } from "@fedify/fedify";
import { getLogger } from "@logtape/logtape";
import type { JobQueue } from "../../services/job-queue.ts";

const logger = getLogger(["wren", "federation", "outbox"]);

const HOUR_MS = 3600_000;
/** Longest wait between two looks of a held delivery (and between two retries). */
export const MAX_DELIVERY_DELAY_MS = 12 * HOUR_MS;
/** How long a delivery is held for a server that stays down before it is dropped. */
export const HELD_DELIVERY_TTL_MS = 72 * HOUR_MS;
/** Where Fedify keeps its circuit-breaker state (pinned in createFederation's kvPrefixes). */
export const CIRCUIT_KV_PREFIX = ["_fedify", "circuit"] as const;

/** The job group of the deliveries held for `host` (a URL's host, as Fedify names it). */
export function heldGroup(host: string): string {
  return `delivery-held:${host}`;
}

/**
 * How long a delivery held for `heldForMs` waits before its next look: as long as it has been
 * held (so looks double), at least the first retry delay and whatever Fedify asked for (a
 * server's Retry-After), at most 12 hours, and never past the end of the hold, when Fedify
 * drops it.
 */
export function heldWaitMs(heldForMs: number, fedifyDelayMs: number, firstRetryMs: number): number {
  const wait = Math.min(Math.max(heldForMs, firstRetryMs, fedifyDelayMs), MAX_DELIVERY_DELAY_MS);
  return Math.max(0, Math.min(wait, HELD_DELIVERY_TTL_MS - heldForMs));
}

type OutboxMessage = Extract<Message, { type: "outbox" }>;

interface Waiting {
  host: string;
  /** When Fedify first held it (system clock, ms); undefined for an ordinary retry. */
  heldSince: number | undefined;
}

/**
 * The server an outbox message waits for, when it is a retry (`attempt` > 0) or held by the
 * circuit breaker. `circuitHeld` and `circuitHeldSince` are Fedify 2.3.6 internals (marked so in
 * its types); the peer-outage test (test/federation/multi-instance/peer-outage.test.ts) fails if
 * they change.
 */
function waitingFor(message: Message): Waiting | undefined {
  if (message.type !== "outbox") return undefined;
  const outbox = message as OutboxMessage;
  const since = outbox.circuitHeld === true ? Date.parse(outbox.circuitHeldSince ?? "") : NaN;
  const heldSince = Number.isNaN(since) ? undefined : since;
  if (heldSince === undefined && !(outbox.attempt > 0)) return undefined;
  try {
    return { host: new URL(outbox.inbox).host, heldSince };
  } catch {
    return undefined;
  }
}

export interface HeldDeliveries {
  /**
   * The job group and wait of a retry or a held delivery (retries keep Fedify's delay; held ones
   * get heldWaitMs); undefined for every other message.
   */
  schedule(message: Message, fedifyDelayMs: number): { group: string; waitMs: number } | undefined;
  /** Called once a held delivery is queued: releases it at once if its server is back already. */
  queued(message: Message): Promise<void>;
  /** Fedify's onStateChange: logs, and releases a server's waiting deliveries when it closes. */
  onStateChange(host: string, previous: string, next: string): Promise<void>;
}

export function createHeldDeliveries(
  jobs: JobQueue,
  kv: KvStore,
  firstRetryMs: number,
): HeldDeliveries {
  const release = async (host: string) => {
    const released = await jobs.release(heldGroup(host));
    if (released > 0) {
      logger.info("{host} answers again: {released} held deliveries go out now", {
        host,
        released,
      });
    }
  };
  return {
    schedule(message, fedifyDelayMs) {
      const waiting = waitingFor(message);
      if (!waiting) return undefined;
      const group = heldGroup(waiting.host);
      if (waiting.heldSince === undefined) return { group, waitMs: fedifyDelayMs };
      // Fedify's hold times are on the system clock (its circuit breaker has no other), so the
      // time held is measured on it too; the wait becomes a run time on Wren's clock.
      const heldForMs = Math.max(0, Date.now() - waiting.heldSince);
      return { group, waitMs: heldWaitMs(heldForMs, fedifyDelayMs, firstRetryMs) };
    },
    async queued(message) {
      const held = waitingFor(message);
      if (held?.heldSince === undefined) return;
      // The circuit may have closed between Fedify's decision to hold and the job's write; its
      // release ran before the job existed, so this one is released here. (A close after this
      // read releases the job, which is written by now.)
      const state = parseCircuitBreakerKvState(await kv.get([...CIRCUIT_KV_PREFIX, held.host]));
      if (state === undefined || state.state === "closed") await release(held.host);
    },
    async onStateChange(host, previous, next) {
      if (next === "open" && previous === "closed") {
        logger.warn(
          "{host} failed repeatedly: its deliveries are held and it is tried again from time " +
            "to time; they go out as soon as it answers",
          { host },
        );
      }
      if (next === "closed") await release(host);
    },
  };
}
