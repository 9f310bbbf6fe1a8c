// Renders notifications (v1) and notification groups (v2) for the client API: every account
// and status they refer to is hydrated (views/notification-view.ts) and serialised once per
// response. A notification whose status cannot be rendered (gone meanwhile) is left out.

import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import { type AccountJson, serializeAccount } from "../../serialization/mastodon/account.ts";
import { serializeCollection } from "../../serialization/mastodon/collection.ts";
import {
  type GroupedNotificationsJson,
  type NotificationJson,
  serializeNotification,
  serializeNotificationGroup,
} from "../../serialization/mastodon/notification.ts";
import { serializeNotificationRequest } from "../../serialization/mastodon/notification-policy.ts";
import { type StatusJson, serializeStatus } from "../../serialization/mastodon/status.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { NotificationGroup } from "../../services/notifications/groups.ts";
import type { NotificationRequest } from "../../services/notifications/requests.ts";
import type { ShownNotification } from "../../services/notifications/shown.ts";
import { loadCollectionViews } from "../../views/collection-view.ts";
import { loadNotificationParts } from "../../views/notification-view.ts";
import { urlContext } from "./account-json.ts";

async function renderParts(
  ctx: ServiceContext,
  accounts: Iterable<Account>,
  statuses: Iterable<Status>,
  viewerId: string,
): Promise<{ accounts: Map<string, AccountJson>; statuses: Map<string, StatusJson> }> {
  const urls = urlContext(ctx);
  const parts = await loadNotificationParts(ctx, accounts, statuses, viewerId);
  return {
    accounts: new Map([...parts.accounts].map(([id, v]) => [id, serializeAccount(v, urls)])),
    statuses: new Map([...parts.statuses].map(([id, v]) => [id, serializeStatus(v, urls)])),
  };
}

export async function renderNotifications(
  ctx: ServiceContext,
  shown: readonly ShownNotification[],
  viewerId: string,
): Promise<NotificationJson[]> {
  const [parts, collections] = await Promise.all([
    renderParts(
      ctx,
      shown.map((n) => n.account),
      shown.flatMap((n) => (n.status ? [n.status] : [])),
      viewerId,
    ),
    loadCollectionViews(
      ctx,
      shown.flatMap((n) => n.collection ?? []),
      viewerId,
    ),
  ]);
  const publicUrl = ctx.settings.publicUrl;
  const collectionJson = new Map(
    collections.map((view) => [view.collection.id, serializeCollection(view, publicUrl)]),
  );
  return shown.flatMap(({ notification, account, status, collection }) => {
    const accountJson = parts.accounts.get(account.id);
    const statusJson = status ? parts.statuses.get(status.id) : undefined;
    if (!accountJson || (status && !statusJson)) return [];
    const about = collection ? collectionJson.get(collection.id) : undefined;
    return [serializeNotification(notification, accountJson, statusJson, about)];
  });
}

export async function renderNotificationGroups(
  ctx: ServiceContext,
  groups: readonly NotificationGroup[],
  viewerId: string,
  options: { paginated: boolean; partialAvatars?: boolean },
): Promise<GroupedNotificationsJson> {
  const parts = await renderParts(
    ctx,
    groups.flatMap((g) => g.sampleAccounts),
    groups.flatMap((g) => (g.status ? [g.status] : [])),
    viewerId,
  );
  const rendered = groups.filter((g) => g.status === null || parts.statuses.has(g.status.id));
  const accountIds = new Set(rendered.flatMap((g) => g.sampleAccounts.map((a) => a.id)));
  const statusIds = new Set(rendered.flatMap((g) => (g.status ? [g.status.id] : [])));
  return {
    accounts: [...parts.accounts.values()].filter((a) => accountIds.has(a.id)),
    // Every account is rendered in full, which `partial_avatars` clients accept as well.
    ...(options.partialAvatars ? { partial_accounts: [] as [] } : {}),
    statuses: [...parts.statuses.values()].filter((s) => statusIds.has(s.id)),
    notification_groups: rendered.map((g) =>
      serializeNotificationGroup(
        {
          ...g,
          sampleAccountIds: g.sampleAccounts.map((a) => a.id),
          statusId: g.status?.id ?? null,
        },
        options.paginated,
      ),
    ),
  };
}

/** Notification requests with their senders and last statuses; one whose sender is gone is left out. */
export async function renderNotificationRequests(
  ctx: ServiceContext,
  requests: readonly NotificationRequest[],
  viewerId: string,
) {
  const statusIds = requests.flatMap((r) => (r.lastStatusId ? [r.lastStatusId] : []));
  const [accounts, statuses] = await Promise.all([
    ctx.storage.accounts.getMany(requests.map((r) => r.fromAccountId)),
    ctx.storage.statuses.getMany(statusIds),
  ]);
  const parts = await renderParts(ctx, accounts.values(), statuses.values(), viewerId);
  return requests.flatMap((request) => {
    const account = parts.accounts.get(request.fromAccountId);
    if (!account) return [];
    const status = request.lastStatusId ? parts.statuses.get(request.lastStatusId) : undefined;
    return [serializeNotificationRequest(request, account, status)];
  });
}
