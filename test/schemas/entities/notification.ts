/**
 * Notification and grouped notifications, from Mastodon's documentation
 * (entities/Notification.md, entities/GroupedNotificationsResults.md).
 */
import {
  anyObject,
  arrayOf,
  dateTime,
  entity,
  integer,
  nullable,
  object,
  oneOf,
  string,
} from "../json-schema.ts";

const types = [
  "mention",
  "status",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "poll",
  "update",
  "admin.sign_up",
  "admin.report",
  "severed_relationships",
  "moderation_warning",
  "quote",
  "quoted_update",
  "added_to_collection",
  "collection_update",
  // Not Mastodon's (it no longer notifies moves) but Pleroma's and Akkoma's, which apps built on
  // megalodon know: Wren tells followers that an account they followed moved (issue 20).
  "move",
];

/** Attributes of notification types Wren never sends (reports, moderation, …): only shape-checked. */
const moderationAttributes = {
  report: nullable(anyObject),
  event: nullable(anyObject),
  moderation_warning: nullable(anyObject),
  fallback: nullable(anyObject),
};

export const Notification = object(
  {
    id: string,
    type: oneOf(...types),
    group_key: string,
    created_at: dateTime,
    account: entity("Account"),
  },
  {
    status: nullable(entity("Status")),
    collection: nullable(entity("Collection")),
    ...moderationAttributes,
  },
  "Something that happened to the signed-in user",
);

/** One group of GET /api/v2/notifications. */
export const NotificationGroup = object(
  {
    group_key: string,
    notifications_count: integer,
    type: oneOf(...types),
    // The documentation's attribute table says String (its examples show a number); Wren sends a string.
    most_recent_notification_id: string,
    sample_account_ids: arrayOf(string),
  },
  {
    page_min_id: nullable(string),
    page_max_id: nullable(string),
    latest_page_notification_at: nullable(dateTime),
    status_id: nullable(string),
    ...moderationAttributes,
  },
  "Notifications of one kind about one thing, grouped",
);

export const GroupedNotificationsResults = object(
  {
    accounts: arrayOf(entity("Account")),
    statuses: arrayOf(entity("Status")),
    notification_groups: arrayOf(entity("NotificationGroup")),
  },
  { partial_accounts: nullable(arrayOf(entity("PartialAccountWithAvatar"))) },
  "Grouped notifications with the accounts and statuses they refer to",
);
