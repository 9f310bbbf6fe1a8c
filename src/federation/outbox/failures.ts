// What Wren does when Fedify gives up on a delivery: an inbox answered 404 or 410 (Fedify's
// permanent-failure codes, never retried), or the circuit breaker held the activity for a host
// that stayed down longer than the hold allows. Both are logged with the inbox, the activity
// and the actors it was for, for operators.
//
// Nothing is removed. A 410 from an actor's inbox usually means the actor is gone, but the
// proof of that is the actor's own Delete (which ingestion honours by suspending the account);
// a 404/410 alone can also come from a misconfigured proxy or a server mid-migration, and
// dropping followers on it would lose relationships that the next delivery would have kept.

import type { Federation } from "@fedify/fedify";
import { getLogger } from "@logtape/logtape";
import type { ServiceContext } from "../../services/context.ts";

const logger = getLogger(["wren", "federation", "outbox"]);

export function registerOutboxFailureHandler(federation: Federation<ServiceContext>): void {
  federation.setOutboxPermanentFailureHandler((_fctx, failure) => {
    const details = {
      inbox: failure.inbox.href,
      activityId: failure.activity.id?.href ?? null,
      activityType: failure.activity.constructor.name,
      actorIds: failure.actorIds.map((id) => id.href),
    };
    if (failure.reason === "circuit-breaker-ttl") {
      logger.warn(
        "Gave up on {activityType} {activityId} to {inbox}: its host stayed unreachable " +
          "since {heldSince}",
        { ...details, heldSince: failure.circuitHeldSince?.toString() ?? null },
      );
      return;
    }
    logger.warn(
      "Gave up on {activityType} {activityId} to {inbox}: the inbox answered {statusCode} " +
        "(recipients {actorIds}); nothing is removed until the actor itself is deleted",
      { ...details, statusCode: failure.statusCode },
    );
  });
}
