// Finishes a settled notification request (requests.ts): shows the accepted sender's held
// notifications, or deletes the dismissed sender's. Idempotent, as a retried listener must be.

import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { discardHeld, releaseHeld } from "./requests.ts";

export function notificationRequestListener(ctx: ServiceContext): EventListener {
  return async (event) => {
    if (event.type !== "notification_request.settled") return;
    const settle = event.outcome === "accepted" ? releaseHeld : discardHeld;
    await settle(ctx, event.recipientId, event.fromAccountId);
  };
}
