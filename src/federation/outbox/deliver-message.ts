// Runs one queued delivery: an activity to one inbox (Fedify's outbox message, queued by
// `sendActivity` with the activity already built, its object integrity proof and Linked Data
// signature made once for all recipients). Wren sends it itself instead of handing it back to
// Fedify 2.3.6, which re-imported the sender's keys from JWK, re-signed through a copy of the
// request and posted with the global fetch, outside the address guard, for every delivery
// (ADR 0040). Per delivery here: the body serialized from the queued message, one HTTP
// signature with a key imported once per process, the POST on a kept-alive connection whose
// address was checked (post-activity.ts), and no Fetch API objects.
//
// Everything around the request is as Fedify does it, on the same state: its circuit breaker
// (its public CircuitBreaker class, on the same key–value entries and options, so held
// deliveries keep working as ADR 0012 describes), its retry policy (delivery-policy.ts), the
// same re-queued messages (attempt + 1, or held), 404 and 410 as permanent failures.

import type { CircuitBreaker, Message, MessageQueue, RetryPolicy } from "@fedify/fedify";
import { Temporal } from "@js-temporal/polyfill";
import { getLogger } from "@logtape/logtape";
import { retryAfterMs } from "../../domain/retry-after.ts";
import { AddressRefusedError, SafeFetchError } from "../safe-fetch.ts";
import { type GivenUp, logHeldTooLong, logPermanentFailure } from "./failures.ts";
import { type DeliveryTransport, type InboxAnswer, postActivity } from "./post-activity.ts";
import type { SigningKeys } from "./signing-keys.ts";

const logger = getLogger(["wren", "federation", "outbox"]);

export type OutboxMessage = Extract<Message, { type: "outbox" }>;

/** Answers after which the inbox is not tried again (Fedify's default). */
const PERMANENT_FAILURE_STATUSES = [404, 410];

export interface DeliveryDeps {
  circuit: CircuitBreaker;
  retryPolicy: RetryPolicy;
  /** Where retries and held deliveries go back (the federation's job queue). */
  queue: MessageQueue;
  keys: SigningKeys;
  transport: DeliveryTransport;
}

/** What went wrong with one try: a status the peer answered, or no answer at all. */
type Failure = { answer: InboxAnswer } | { error: unknown };

const givenUp = (message: OutboxMessage): GivenUp => ({
  inbox: message.inbox,
  activityId: message.activityId ?? null,
  activityType: message.activityType,
  actorIds: message.actorIds ?? [],
});

const ms = (duration: Temporal.Duration) => duration.total({ unit: "millisecond" });

export type DeliverMessage = (message: OutboxMessage) => Promise<void>;

export function createMessageDelivery(deps: DeliveryDeps): DeliverMessage {
  const { circuit, queue } = deps;
  /**
   * Each activity's body, serialized once: a fan-out's deliveries read back from the queue share
   * one activity object (its shared part, ADR 0067), so 1,000 deliveries make one body, and the
   * signature's digest of it is made once too (cavage-signature.ts keeps it per body).
   */
  const bodies = new WeakMap<object, Buffer>();
  const bodyOf = (activity: unknown): Buffer => {
    if (typeof activity !== "object" || activity === null) {
      return Buffer.from(JSON.stringify(activity));
    }
    let body = bodies.get(activity);
    if (body === undefined) {
      body = Buffer.from(JSON.stringify(activity));
      bodies.set(activity, body);
    }
    return body;
  };

  const requeue = (message: OutboxMessage, delayMs: number) =>
    queue.enqueue(message, {
      delay: Temporal.Duration.from({ milliseconds: Math.max(0, Math.round(delayMs)) }),
      ...(message.orderingKey === undefined ? {} : { orderingKey: message.orderingKey }),
    });
  const hold = (message: OutboxMessage, delayMs: number, heldSince: Temporal.Instant) =>
    requeue({ ...message, circuitHeld: true, circuitHeldSince: heldSince.toString() }, delayMs);
  const drop = (message: OutboxMessage, heldSince: Temporal.Instant) =>
    logHeldTooLong(givenUp(message), heldSince.toString());

  /** The first RSA key of the sender: what HTTP signatures are made with. */
  function rsaKey(message: OutboxMessage) {
    for (const { keyId, privateKey } of message.keys) {
      if (privateKey.kty === "RSA") return deps.keys.get(keyId, privateKey);
    }
    throw new Error(`No RSA key to sign delivery of ${message.activityId} with`);
  }

  async function attempt(message: OutboxMessage, inbox: URL): Promise<Failure | undefined> {
    const key = rsaKey(message);
    const body = bodyOf(message.activity);
    try {
      const answer = await postActivity(inbox, body, key, message.headers, deps.transport);
      return answer.status >= 200 && answer.status < 300 ? undefined : { answer };
    } catch (error) {
      return { error };
    }
  }

  async function failed(message: OutboxMessage, host: string, failure: Failure): Promise<void> {
    const status = "answer" in failure ? failure.answer.status : 0;
    const permanent = PERMANENT_FAILURE_STATUSES.includes(status);
    const retryAfter =
      "answer" in failure && (status === 429 || status === 503)
        ? retryAfterMs(failure.answer.headers.get("retry-after"), new Date())
        : undefined;
    let held: { delayMs: number; heldSince: Temporal.Instant } | undefined;
    let dropSince: Temporal.Instant | undefined;
    try {
      // An answer in the 4xx range means the host is up; 5xx and no answer count against it.
      if (status >= 500 || (status === 0 && "error" in failure)) {
        await circuit.recordFailure(host);
      } else if (status >= 400) {
        await circuit.recordReachableFailure(host);
      }
      if (!permanent) {
        const decision = await circuit.beforeSend(host, message);
        if (decision.type === "hold") {
          held = { delayMs: ms(decision.delay), heldSince: decision.heldSince };
        } else if (decision.type === "drop") dropSince = decision.heldSince;
      }
    } catch (error) {
      logger.error("Could not update the circuit of {host} after a failed delivery: {error}", {
        host,
        error,
      });
    }
    if (dropSince) return drop(message, dropSince);
    const reason = "answer" in failure ? `answered ${status}` : String(failure.error);
    if (permanent) return logPermanentFailure(givenUp(message), status);
    const elapsed = Temporal.Instant.from(message.started).until(Temporal.Now.instant());
    const policy = deps.retryPolicy({ elapsedTime: elapsed, attempts: message.attempt });
    if (held && policy !== null) {
      logger.info("Delivery of {activityId} to {inbox} failed ({reason}): held, host is down", {
        activityId: message.activityId,
        inbox: message.inbox,
        reason,
      });
      const delayMs =
        retryAfter === undefined
          ? held.delayMs
          : ms(
              circuit.capHeldDelay(
                held.heldSince,
                Temporal.Duration.from({ milliseconds: Math.max(held.delayMs, retryAfter) }),
              ),
            );
      return hold(message, delayMs, held.heldSince);
    }
    if (policy === null) {
      logger.warn("Gave up on {activityId} to {inbox} after {attempts} tries ({reason})", {
        activityId: message.activityId,
        inbox: message.inbox,
        attempts: message.attempt + 1,
        reason,
      });
      return;
    }
    logger.info("Delivery of {activityId} to {inbox} failed ({reason}), try {attempt}: retried", {
      activityId: message.activityId,
      inbox: message.inbox,
      reason,
      attempt: message.attempt + 1,
    });
    await requeue({ ...message, attempt: message.attempt + 1 }, retryAfter ?? ms(policy));
  }

  return async (message) => {
    let inbox: URL;
    try {
      inbox = new URL(message.inbox);
    } catch {
      logger.warn("Dropped a delivery to {inbox}: not a URL", { inbox: message.inbox });
      return;
    }
    const host = inbox.host;
    const decision = await circuit.beforeSend(host, message).catch((error: unknown) => {
      // As Fedify does: a circuit that cannot be read does not stop deliveries.
      logger.error("Could not read the circuit of {host}; delivering: {error}", { host, error });
      return undefined;
    });
    if (decision?.type === "hold") return hold(message, ms(decision.delay), decision.heldSince);
    if (decision?.type === "drop") return drop(message, decision.heldSince);
    const failure = await attempt(message, inbox);
    if (failure && "error" in failure && failure.error instanceof AddressRefusedError) {
      // Checked at the connection itself: a name that resolves to a private address now.
      logger.warn("Dropped a delivery to {inbox}: not a public address", { inbox: message.inbox });
      return;
    }
    if (failure && "error" in failure && !(failure.error instanceof SafeFetchError)) {
      // Not the network: a bug or a bad message, which trying again will not cure.
      throw failure.error;
    }
    if (failure) return failed(message, host, failure);
    try {
      await circuit.recordSuccess(host);
    } catch (error) {
      logger.error("Could not record a delivery to {host} in its circuit: {error}", {
        host,
        error,
      });
    }
  };
}
