/**
 * NotificationPolicy and NotificationRequest, from Mastodon's documentation
 * (entities/NotificationPolicy.md, entities/NotificationRequest.md, methods/notifications.md for
 * the older v1 policy answer).
 */
import { boolean, dateTime, entity, integer, object, oneOf, string } from "../json-schema.ts";

const action = oneOf("accept", "filter", "drop");
const summary = object({ pending_requests_count: integer, pending_notifications_count: integer });

export const NotificationPolicy = object(
  {
    for_not_following: action,
    for_not_followers: action,
    for_new_accounts: action,
    for_private_mentions: action,
    for_limited_accounts: action,
    summary,
  },
  { for_bots: action },
  "The notification filtering policy of the user",
);

/** GET/PATCH /api/v1/notifications/policy: the switches of Mastodon 4.3's first form. */
export const V1NotificationPolicy = object(
  {
    filter_not_following: boolean,
    filter_not_followers: boolean,
    filter_new_accounts: boolean,
    filter_private_mentions: boolean,
    summary,
  },
  {},
  "The notification filtering policy of the user (API v1)",
);

export const NotificationRequest = object(
  {
    id: string,
    created_at: dateTime,
    updated_at: dateTime,
    account: entity("Account"),
    // Documented as an Integer, sent (and shown in the example) as a string of digits.
    notifications_count: { type: "string", pattern: "^[0-9]+$" },
  },
  { last_status: entity("Status") },
  "A group of filtered notifications from one account",
);
