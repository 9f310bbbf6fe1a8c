// Walks a recipient's stored notifications in id order, batch by batch, for the grouped views
// that need to look further than one page (a page of groups can span many notifications).

import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { NotificationFilter } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { ungroupedKey } from "./group-key.ts";

const BATCH = 100;

export interface WalkBounds {
  /** Newest first below `maxId` (and above `sinceId`), or oldest first above `minId`. */
  direction: "down" | "up";
  maxId?: string | undefined;
  sinceId?: string | undefined;
  minId?: string | undefined;
}

export async function* walkNotifications(
  ctx: ServiceContext,
  recipientId: string,
  bounds: WalkBounds,
  filter: NotificationFilter,
): AsyncGenerator<Notification> {
  const { notifications } = ctx.storage;
  if (bounds.direction === "up") {
    let minId = bounds.minId;
    for (;;) {
      const batch = await notifications.listFor(recipientId, { limit: BATCH, minId }, filter);
      // The batch is the oldest ones above minId, newest first: climb through it backwards.
      for (let i = batch.length - 1; i >= 0; i--) yield batch[i] as Notification;
      if (batch.length < BATCH) return;
      minId = batch[0]?.id;
    }
  }
  let maxId = bounds.maxId;
  for (;;) {
    const page = { limit: BATCH, maxId, sinceId: bounds.sinceId };
    const batch = await notifications.listFor(recipientId, page, filter);
    yield* batch;
    if (batch.length < BATCH) return;
    maxId = batch.at(-1)?.id;
  }
}

/**
 * The group a notification is shown in: its stored key, unless the client does not group its
 * type (`grouped_types[]`), in which case it stands alone.
 */
export function effectiveGroupKey(
  notification: Notification,
  groupedTypes: readonly NotificationType[],
): string {
  return groupedTypes.includes(notification.type)
    ? notification.groupKey
    : ungroupedKey(notification.id);
}

/** The id just above `id`, to turn an inclusive upper bound into max_id's strict one. */
export function idAfter(id: string): string {
  return (BigInt(id) + 1n).toString();
}
