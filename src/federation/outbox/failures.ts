// What Wren does when it gives up on a delivery (deliver-message.ts): an inbox answered 404 or
// 410 (permanent-failure codes, never retried), or a host stayed down longer than a delivery is
// held (the circuit breaker's hold). Both are logged with the inbox, the activity and the actors
// it was for, for operators.
//
// Nothing is removed. A 410 from an actor's inbox usually means the actor is gone, but the
// proof of that is the actor's own Delete (which ingestion honours by suspending the account);
// a 404/410 alone can also come from a misconfigured proxy or a server mid-migration, and
// dropping followers on it would lose relationships that the next delivery would have kept.

import { getLogger } from "@logtape/logtape";

const logger = getLogger(["wren", "federation", "outbox"]);

export interface GivenUp {
  inbox: string;
  activityId: string | null;
  /** The activity type's full IRI (…#Create); logged by its short name. */
  activityType: string;
  actorIds: readonly string[];
}

const shortType = (iri: string) => iri.slice(iri.lastIndexOf("#") + 1);

export function logHeldTooLong(given: GivenUp, heldSince: string): void {
  logger.warn(
    "Gave up on {activityType} {activityId} to {inbox}: its host stayed unreachable " +
      "since {heldSince}",
    { ...given, activityType: shortType(given.activityType), heldSince },
  );
}

export function logPermanentFailure(given: GivenUp, statusCode: number): void {
  logger.warn(
    "Gave up on {activityType} {activityId} to {inbox}: the inbox answered {statusCode} " +
      "(recipients {actorIds}); nothing is removed until the actor itself is deleted",
    { ...given, activityType: shortType(given.activityType), statusCode },
  );
}
