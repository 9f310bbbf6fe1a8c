// Reading and changing a user's notification policy (GET/PATCH /api/v{1,2}/notifications/policy),
// with the summary of what it holds back: the pending requests and their notifications.

import {
  DEFAULT_NOTIFICATION_POLICY,
  type NotificationPolicy,
} from "../../domain/notification-policy.ts";
import type { ServiceContext } from "../context.ts";
import { pendingRequests } from "./requests.ts";

/** Mastodon caps both summary counts (NotificationPolicy::MAX_MEANINGFUL_COUNT). */
const SUMMARY_CAP = 100;

export interface PolicySummary {
  pendingRequestsCount: number;
  pendingNotificationsCount: number;
}

export async function policyOf(
  ctx: ServiceContext,
  accountId: string,
): Promise<NotificationPolicy> {
  const user = await ctx.storage.users.get(accountId);
  return { ...DEFAULT_NOTIFICATION_POLICY, ...user?.notificationPolicy };
}

/** Applies the given fields (the others stay) and answers the policy now in force. */
export async function updatePolicy(
  ctx: ServiceContext,
  accountId: string,
  changes: Partial<NotificationPolicy>,
): Promise<NotificationPolicy> {
  return ctx.storage.coordination.withLock(`notification-policy:${accountId}`, async () => {
    const user = await ctx.storage.users.get(accountId);
    if (!user) return DEFAULT_NOTIFICATION_POLICY;
    const policy = { ...DEFAULT_NOTIFICATION_POLICY, ...user.notificationPolicy, ...changes };
    await ctx.storage.users.put({ ...user, notificationPolicy: policy });
    return policy;
  });
}

export async function policySummary(
  ctx: ServiceContext,
  accountId: string,
): Promise<PolicySummary> {
  const requests = await pendingRequests(ctx, accountId);
  const notifications = requests.reduce((sum, r) => sum + r.notificationsCount, 0);
  return {
    pendingRequestsCount: Math.min(requests.length, SUMMARY_CAP),
    pendingNotificationsCount: notifications,
  };
}
