// A user's notification filtering policy (Mastodon 4.3's NotificationPolicy, API v2 form): for
// each kind of sender, whether their notifications are accepted, filtered (kept aside in a
// request per sender) or dropped (never made).

import type { NotificationType } from "./notification.ts";

export type PolicyAction = "accept" | "filter" | "drop";

export const POLICY_ACTIONS: readonly PolicyAction[] = ["accept", "filter", "drop"];

export interface NotificationPolicy {
  /** Senders the user does not follow. */
  forNotFollowing: PolicyAction;
  /** Senders not following the user, or following for less than three days. */
  forNotFollowers: PolicyAction;
  /** Senders whose account is less than thirty days old (and the user does not follow). */
  forNewAccounts: PolicyAction;
  /** Private mentions the user did not start, from senders the user does not follow. */
  forPrivateMentions: PolicyAction;
  /** Senders limited by a moderator (and the user does not follow). */
  forLimitedAccounts: PolicyAction;
}

/** Mastodon's defaults: only unsolicited private mentions and limited accounts are filtered. */
export const DEFAULT_NOTIFICATION_POLICY: NotificationPolicy = {
  forNotFollowing: "accept",
  forNotFollowers: "accept",
  forNewAccounts: "accept",
  forPrivateMentions: "filter",
  forLimitedAccounts: "filter",
};

/**
 * The types a policy applies to. Posts from accounts one asked to be notified about, poll
 * results and edits of boosted posts are things the user opted into, so they always pass.
 */
export const FILTERABLE_TYPES: ReadonlySet<NotificationType> = new Set<NotificationType>([
  "mention",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
]);

/** A follower counts only once the follow is this old (a fresh follow just to get through). */
export const FOLLOWER_MIN_AGE_MS = 3 * 24 * 60 * 60 * 1000;

/** An account younger than this is a new account. */
export const NEW_ACCOUNT_AGE_MS = 30 * 24 * 60 * 60 * 1000;
