// Subscribes the in-process reactions to domain events (notifications, conversations; later the
// federation outbox). main.ts calls this once per service context.

import type { ServiceContext } from "./context.ts";
import { conversationListener } from "./conversations/listener.ts";
import { mediaPurgeListener } from "./media/purge-deleted-status-media.ts";
import { notificationListener } from "./notifications/listener.ts";

export function subscribeListeners(ctx: ServiceContext): void {
  ctx.events.subscribe(conversationListener(ctx));
  ctx.events.subscribe(notificationListener(ctx));
  ctx.events.subscribe(mediaPurgeListener(ctx));
}
