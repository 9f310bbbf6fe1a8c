// The notifications that make up one group, found by key. A grouped key names its type and the
// hour it started, and a group never spans more than a few hours, so the search reads only that
// type's notifications back to the group's start; `ungrouped-<id>` is the one notification.
// Notifications held back by the notification policy belong to no group.

import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { ServiceContext } from "../context.ts";
import { bucketStart, parseGroupKey } from "./group-key.ts";
import { idAfter, walkNotifications } from "./walk.ts";

const UNGROUPED = /^ungrouped-([0-9]{1,25})$/;

/**
 * Several keys at once (one walk per type), newest first within each key; only notifications
 * with ids up to `upTo` when given.
 */
export async function membersOfGroups(
  ctx: ServiceContext,
  recipientId: string,
  keys: readonly string[],
  upTo?: string,
): Promise<Map<string, Notification[]>> {
  const members = new Map<string, Notification[]>(keys.map((k) => [k, []]));
  const startByType = new Map<NotificationType, number>();
  for (const key of keys) {
    const single = UNGROUPED.exec(key);
    if (single) {
      const notification = await ctx.storage.notifications.get(single[1] as string);
      const inRange =
        upTo === undefined || (notification && BigInt(notification.id) <= BigInt(upTo));
      const shown = notification?.accountId === recipientId && notification.filtered !== true;
      if (notification && shown && inRange) {
        members.set(key, [notification]);
      }
      continue;
    }
    const parsed = parseGroupKey(key);
    if (!parsed) continue;
    const start = bucketStart(parsed.bucket);
    startByType.set(parsed.type, Math.min(start, startByType.get(parsed.type) ?? start));
  }
  for (const [type, start] of startByType) {
    const bounds = {
      direction: "down" as const,
      maxId: upTo === undefined ? undefined : idAfter(upTo),
    };
    for await (const n of walkNotifications(ctx, recipientId, bounds, {
      types: [type],
      filtered: false,
    })) {
      if (Date.parse(n.createdAt) < start) break;
      members.get(n.groupKey)?.push(n);
    }
  }
  return members;
}

export async function membersOfGroup(
  ctx: ServiceContext,
  recipientId: string,
  key: string,
): Promise<Notification[]> {
  return (await membersOfGroups(ctx, recipientId, [key])).get(key) ?? [];
}
