// Mastodon's Notification entity (API v1) and the grouped results of API v2, from already
// serialised accounts and statuses (pure: the caller loads and renders those in batches).

import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { AccountJson } from "./account.ts";
import type { CollectionJson } from "./collection.ts";
import type { StatusJson } from "./status.ts";

export interface NotificationJson {
  id: string;
  type: NotificationType;
  created_at: string;
  group_key: string;
  account: AccountJson;
  /** Only for the types about a status. */
  status?: StatusJson;
  /** Only for added_to_collection and collection_update. */
  collection?: CollectionJson;
}

export function serializeNotification(
  notification: Notification,
  account: AccountJson,
  status: StatusJson | undefined,
  collection?: CollectionJson,
): NotificationJson {
  return {
    id: notification.id,
    type: notification.type,
    created_at: notification.createdAt,
    group_key: notification.groupKey,
    account,
    ...(status ? { status } : {}),
    ...(collection ? { collection } : {}),
  };
}

/** A notification group with its accounts and status referred to by id. */
export interface NotificationGroupInput {
  groupKey: string;
  type: NotificationType;
  notificationsCount: number;
  mostRecentNotificationId: string;
  sampleAccountIds: readonly string[];
  statusId: string | null;
  pageMinId: string;
  pageMaxId: string;
  latestPageNotificationAt: string;
}

export interface NotificationGroupJson {
  group_key: string;
  notifications_count: number;
  type: NotificationType;
  most_recent_notification_id: string;
  page_min_id?: string;
  page_max_id?: string;
  latest_page_notification_at?: string;
  sample_account_ids: string[];
  status_id?: string;
}

/**
 * `paginated`: the group comes from a page of the list, so the page fields are included (the
 * single-group endpoint leaves them out, as Mastodon does). The most recent notification id is
 * a string, as documented: our ids exceed what a JSON number carries exactly.
 */
export function serializeNotificationGroup(
  group: NotificationGroupInput,
  paginated: boolean,
): NotificationGroupJson {
  return {
    group_key: group.groupKey,
    notifications_count: group.notificationsCount,
    type: group.type,
    most_recent_notification_id: group.mostRecentNotificationId,
    ...(paginated
      ? {
          page_min_id: group.pageMinId,
          page_max_id: group.pageMaxId,
          latest_page_notification_at: group.latestPageNotificationAt,
        }
      : {}),
    sample_account_ids: [...group.sampleAccountIds],
    ...(group.statusId !== null ? { status_id: group.statusId } : {}),
  };
}

export interface GroupedNotificationsJson {
  accounts: AccountJson[];
  partial_accounts?: [];
  statuses: StatusJson[];
  notification_groups: NotificationGroupJson[];
}
