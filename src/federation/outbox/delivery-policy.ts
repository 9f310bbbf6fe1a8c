// How patient deliveries to other servers are: Fedify's retry policy and circuit breaker, built
// from the two delivery settings (WREN_DELIVERY_RETRY_SECONDS, WREN_DELIVERY_PROBE_SECONDS).

import {
  type CircuitBreakerOptions,
  createExponentialBackoffPolicy,
  type RetryPolicy,
} from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import {
  HELD_DELIVERY_TTL_MS,
  type HeldDeliveries,
  MAX_DELIVERY_DELAY_MS,
} from "./held-deliveries.ts";

export interface DeliveryTiming {
  /** Delay before the first retry of a failed delivery (later ones double). Default 1 minute. */
  firstRetryMs: number;
  /** Least time between two tries of a server whose circuit is open. Default 1 minute. */
  probeMs: number;
}

export const DEFAULT_DELIVERY_TIMING: DeliveryTiming = { firstRetryMs: 60_000, probeMs: 60_000 };

/**
 * As patient as Mastodon, which keeps retrying a delivery for about two and a half days:
 * exponential backoff from a minute (doubling, with up to as much again of jitter: the first ten
 * retries span about 17 hours), then every twelve hours; 14 attempts end a little over two days
 * after the first.
 */
export function outboxRetryPolicy(timing: DeliveryTiming): RetryPolicy {
  return createExponentialBackoffPolicy({
    maxAttempts: 14,
    initialDelay: Temporal.Duration.from({ milliseconds: timing.firstRetryMs }),
    maxDelay: Temporal.Duration.from({ milliseconds: MAX_DELIVERY_DELAY_MS }),
  });
}

/**
 * Per-host circuit breaking: after 5 failed deliveries (5xx or no connection) to one host within
 * 10 minutes, its deliveries are held instead of attempted. The first held delivery (or new
 * one) due after the probe delay is tried as a probe; when a probe gets any answer, every held
 * delivery is released at once (held-deliveries.ts, which also schedules the held ones). Held
 * activities are kept at most three days (a host down that long is treated as gone for what it
 * missed), then dropped and logged. 4xx answers mean the host is up and do not count.
 */
export function outboxCircuitBreaker(
  timing: DeliveryTiming,
  held: HeldDeliveries,
): CircuitBreakerOptions {
  return {
    failureThreshold: 5,
    failureWindow: { minutes: 10 },
    recoveryDelay: { milliseconds: timing.probeMs },
    heldActivityTtl: { milliseconds: HELD_DELIVERY_TTL_MS },
    // How soon Fedify would look again while a probe is out; held-deliveries.ts waits longer
    // and releases them when the probe succeeds instead.
    releaseInterval: { milliseconds: timing.probeMs },
    onStateChange: (host, previous, next) => held.onStateChange(host, previous, next),
  };
}
