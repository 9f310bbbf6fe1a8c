// Subscribes the in-process reactions to domain events (notifications, conversations; later the
// federation outbox). main.ts calls this once per service context.

import type { ServiceContext } from "./context.ts";

export function subscribeListeners(_ctx: ServiceContext): void {}
