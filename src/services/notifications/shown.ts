// Which stored notifications a recipient is shown, with the records they refer to: those from
// accounts that no longer exist or are suspended, that the recipient now blocks or whose server they block, and
// those about statuses gone or no longer visible to the recipient, or hidden by the recipient's
// `hide` filters of the notifications context, and those about collections deleted since, are
// left out. Batched: one lookup per kind of record.

import type { Account } from "../../domain/account.ts";
import type { Collection } from "../../domain/collection.ts";
import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { Status } from "../../domain/status.ts";
import type { NotificationFilter } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { blockedDomains, onBlockedDomain } from "../graph/blocked-domains.ts";
import { visibleStatuses } from "../statuses/visibility.ts";

export interface ShownNotification {
  notification: Notification;
  account: Account;
  status: Status | null;
  /** The collection of added_to_collection and collection_update; null for the other types. */
  collection: Collection | null;
}

export async function shownNotifications(
  ctx: ServiceContext,
  recipientId: string,
  batch: readonly Notification[],
): Promise<(ShownNotification | undefined)[]> {
  const fromIds = [...new Set(batch.map((n) => n.fromAccountId))];
  const statusIds = [...new Set(batch.flatMap((n) => (n.statusId ? [n.statusId] : [])))];
  const collectionIds = [...new Set(batch.flatMap((n) => n.collectionId ?? []))];
  const [accounts, blocked, statuses, domains, collections] = await Promise.all([
    ctx.storage.accounts.getMany(fromIds),
    ctx.storage.blocks.findFrom(recipientId, fromIds),
    ctx.storage.statuses.getMany(statusIds),
    blockedDomains(ctx, recipientId),
    Promise.all(collectionIds.map((id) => ctx.storage.collections.get(id))),
  ]);
  const collectionsById = new Map(collections.flatMap((c) => (c ? [[c.id, c] as const] : [])));
  const seen = await visibleStatuses(ctx, recipientId, [...statuses.values()]);
  const shown = await withoutHidden(
    ctx,
    recipientId,
    "notifications",
    seen.map((status) => ({ status, original: null })),
  );
  const visible = new Set(shown.map((s) => s.status.id));
  return batch.map((notification) => {
    const account = accounts.get(notification.fromAccountId);
    // A suspended sender's notifications are left out (Mastodon's `without_suspended`), kept in
    // case it is restored.
    if (!account || account.suspended || blocked.has(account.id)) return undefined;
    if (onBlockedDomain(account, domains)) return undefined;
    if (notification.collectionId !== undefined) {
      const collection = collectionsById.get(notification.collectionId);
      return collection ? { notification, account, status: null, collection } : undefined;
    }
    if (notification.statusId === null) {
      return { notification, account, status: null, collection: null };
    }
    const status = statuses.get(notification.statusId);
    return status && visible.has(status.id)
      ? { notification, account, status, collection: null }
      : undefined;
  });
}

/** Keeps the shown ones, in order. */
export async function keepShown(
  ctx: ServiceContext,
  recipientId: string,
  batch: readonly Notification[],
): Promise<ShownNotification[]> {
  return (await shownNotifications(ctx, recipientId, batch)).filter(
    (n): n is ShownNotification => n !== undefined,
  );
}

/** What a client asked to see; `types` empty means none matches (Mastodon intersects). */
export interface NotificationQuery {
  types: readonly NotificationType[];
  fromAccountId?: string | undefined;
}

/** The store's selection for the lists and counts: never the ones the policy holds back. */
export function storeFilter(query: NotificationQuery): NotificationFilter {
  return {
    types: query.types,
    filtered: false,
    ...(query.fromAccountId !== undefined ? { fromAccountId: query.fromAccountId } : {}),
  };
}
