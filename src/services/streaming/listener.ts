// The "streaming" listener: turns the domain events that streams show into id-only signals
// (signal.ts). Local posts and those received by federation publish the same events, so both
// reach the streams alike. Notifications signal themselves once stored (notifications/notify.ts).

import type { DomainEvent } from "../../domain/events.ts";
import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { signalStreams } from "./signal.ts";

export function streamingListener(ctx: ServiceContext): EventListener {
  return async (event: DomainEvent) => {
    switch (event.type) {
      case "status.created":
        // Boosts publish status.reblogged instead (interactions/reblog-record.ts).
        if (event.status.reblogOfId !== null) return;
        return signalStreams(ctx, { kind: "status", event: "update", statusId: event.status.id });
      case "status.reblogged":
        return signalStreams(ctx, { kind: "status", event: "update", statusId: event.reblog.id });
      case "status.updated":
        return signalStreams(ctx, {
          kind: "status",
          event: "status.update",
          statusId: event.status.id,
        });
      case "status.deleted":
        return signalStreams(ctx, { kind: "delete", statusId: event.status.id });
      case "notification_request.settled":
        if (event.outcome !== "accepted") return;
        return signalStreams(ctx, { kind: "notifications_merged", accountId: event.recipientId });
      default:
        return;
    }
  };
}
