// GET /api/v1/notifications: the recipient's notifications newest first, filtered by type and
// sender, with hidden ones (see shown.ts) skipped while the page is filled.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import {
  type NotificationQuery,
  type ShownNotification,
  shownNotifications,
  storeFilter,
} from "./shown.ts";

export interface NotificationPage {
  notifications: ShownNotification[];
  newestId: string | undefined;
  oldestId: string | undefined;
}

export async function listNotifications(
  ctx: ServiceContext,
  recipientId: string,
  page: IdPage,
  query: NotificationQuery,
): Promise<NotificationPage> {
  if (query.types.length === 0) {
    return { notifications: [], newestId: undefined, oldestId: undefined };
  }
  const filter = storeFilter(query);
  const filled = await fillPage(page, {
    read: (window) => ctx.storage.notifications.listFor(recipientId, window, filter),
    idOf: (notification) => notification.id,
    keep: (batch) => shownNotifications(ctx, recipientId, batch),
  });
  return { notifications: filled.items, newestId: filled.newestId, oldestId: filled.oldestId };
}
