// The read side of notifications (v1) and notification groups (v2): every account and status a
// page of them refers to, hydrated once per page in one batch (an account that sent ten
// notifications is loaded once). The notifications themselves come filtered from the service
// (services/notifications/shown.ts: blocked senders and statuses the recipient may not see
// are already left out).

import type { Account } from "../domain/account.ts";
import type { Status } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import { type AccountView, loadAccountViews } from "./account-view.ts";
import { loadStatusViews, type StatusView } from "./status-view.ts";

export interface NotificationParts {
  accounts: Map<string, AccountView>;
  /** Statuses that can still be shown (not gone, not hidden by a filter); a notification about one missing here is left out. */
  statuses: Map<string, StatusView>;
}

function unique<T extends { id: string }>(items: Iterable<T>): T[] {
  const byId = new Map<string, T>();
  for (const item of items) if (!byId.has(item.id)) byId.set(item.id, item);
  return [...byId.values()];
}

export async function loadNotificationParts(
  ctx: ServiceContext,
  accounts: Iterable<Account>,
  statuses: Iterable<Status>,
  viewerId: string,
): Promise<NotificationParts> {
  const [accountViews, statusViews] = await Promise.all([
    loadAccountViews(ctx, unique(accounts)),
    // A notification about a status a `hide` filter of the notifications context takes out
    // has no status view, so the notification is left out too.
    loadStatusViews(
      ctx,
      unique(statuses).filter((s) => !s.deleted),
      viewerId,
      "notifications",
    ),
  ]);
  return {
    accounts: new Map(accountViews.map((v) => [v.account.id, v])),
    statuses: new Map(statusViews.map((v) => [v.status.id, v])),
  };
}
