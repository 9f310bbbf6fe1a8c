// NotificationPolicy (API v2 and its older v1 form) and NotificationRequest entities.

import type { NotificationPolicy, PolicyAction } from "../../domain/notification-policy.ts";
import type { PolicySummary } from "../../services/notifications/policy.ts";
import type { NotificationRequest } from "../../services/notifications/requests.ts";
import type { AccountJson } from "./account.ts";
import type { StatusJson } from "./status.ts";

export interface PolicySummaryJson {
  pending_requests_count: number;
  pending_notifications_count: number;
}

function summaryJson(summary: PolicySummary): PolicySummaryJson {
  return {
    pending_requests_count: summary.pendingRequestsCount,
    pending_notifications_count: summary.pendingNotificationsCount,
  };
}

export function serializePolicyV2(policy: NotificationPolicy, summary: PolicySummary) {
  return {
    for_not_following: policy.forNotFollowing,
    for_not_followers: policy.forNotFollowers,
    for_new_accounts: policy.forNewAccounts,
    for_private_mentions: policy.forPrivateMentions,
    for_limited_accounts: policy.forLimitedAccounts,
    summary: summaryJson(summary),
  };
}

/** The v1 form only knows on and off: anything but accepting counts as filtering. */
const filters = (action: PolicyAction) => action !== "accept";

export function serializePolicyV1(policy: NotificationPolicy, summary: PolicySummary) {
  return {
    filter_not_following: filters(policy.forNotFollowing),
    filter_not_followers: filters(policy.forNotFollowers),
    filter_new_accounts: filters(policy.forNewAccounts),
    filter_private_mentions: filters(policy.forPrivateMentions),
    summary: summaryJson(summary),
  };
}

export function serializeNotificationRequest(
  request: NotificationRequest,
  account: AccountJson,
  lastStatus: StatusJson | undefined,
) {
  return {
    id: request.id,
    created_at: request.createdAt,
    updated_at: request.updatedAt,
    account,
    // A string, as Mastodon sends it (its documentation's example shows "1").
    notifications_count: String(request.notificationsCount),
    ...(lastStatus ? { last_status: lastStatus } : {}),
  };
}
