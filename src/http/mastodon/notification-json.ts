// Renders notifications (v1) and notification groups (v2) for the client API: every account
// and status they refer to is loaded and serialised once per response, in one batch. A
// notification whose status cannot be rendered (gone meanwhile) is left out.

import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { AccountJson } from "../../serialization/mastodon/account.ts";
import {
  type GroupedNotificationsJson,
  type NotificationJson,
  serializeNotification,
  serializeNotificationGroup,
} from "../../serialization/mastodon/notification.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { NotificationGroup } from "../../services/notifications/groups.ts";
import type { ShownNotification } from "../../services/notifications/shown.ts";
import { renderAccounts } from "./account-json.ts";
import { renderStatuses, type StatusJson } from "./status-json.ts";

function unique<T extends { id: string }>(items: Iterable<T>): T[] {
  const byId = new Map<string, T>();
  for (const item of items) if (!byId.has(item.id)) byId.set(item.id, item);
  return [...byId.values()];
}

async function renderParts(
  ctx: ServiceContext,
  accounts: Iterable<Account>,
  statuses: Iterable<Status>,
  viewerId: string,
): Promise<{ accounts: Map<string, AccountJson>; statuses: Map<string, StatusJson> }> {
  const [accountJson, statusJson] = await Promise.all([
    renderAccounts(ctx, unique(accounts)),
    renderStatuses(ctx, unique(statuses), viewerId),
  ]);
  return {
    accounts: new Map(accountJson.map((a) => [a.id, a])),
    statuses: new Map(statusJson.map((s) => [s.id, s])),
  };
}

export async function renderNotifications(
  ctx: ServiceContext,
  shown: readonly ShownNotification[],
  viewerId: string,
): Promise<NotificationJson[]> {
  const parts = await renderParts(
    ctx,
    shown.map((n) => n.account),
    shown.flatMap((n) => (n.status ? [n.status] : [])),
    viewerId,
  );
  return shown.flatMap(({ notification, account, status }) => {
    const accountJson = parts.accounts.get(account.id);
    const statusJson = status ? parts.statuses.get(status.id) : undefined;
    if (!accountJson || (status && !statusJson)) return [];
    return [serializeNotification(notification, accountJson, statusJson)];
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
