// The in-process event bus: use cases publish domain events after their writes; listeners
// (notifications, conversations, later the federation outbox) react. Listeners run in order and
// are awaited, so a request's side effects are done when it answers; a listener that throws is
// logged and does not fail the action that already happened, nor the other listeners.

import { getLogger } from "@logtape/logtape";
import type { DomainEvent } from "../domain/events.ts";

const logger = getLogger(["wren", "events"]);

export type EventListener = (event: DomainEvent) => Promise<void>;

export interface EventBus {
  publish(event: DomainEvent): Promise<void>;
  subscribe(listener: EventListener): void;
}

export function createEventBus(): EventBus {
  const listeners: EventListener[] = [];
  return {
    subscribe(listener) {
      listeners.push(listener);
    },
    async publish(event) {
      for (const listener of listeners) {
        try {
          await listener(event);
        } catch (error) {
          logger.error("Listener failed on {type}: {error}", { type: event.type, error });
        }
      }
    },
  };
}
