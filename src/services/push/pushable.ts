// Whether a subscription wants a notification: its type switched on in the alerts, and its
// sender within the policy (Mastodon's Web::PushSubscription#pushable?).

import type { Notification } from "../../domain/notification.ts";
import type { PushSubscription } from "../../domain/push-subscription.ts";
import type { ServiceContext } from "../context.ts";

/** The part that needs no storage: the type's alert, and a policy other than `none`. */
export function wantsType(subscription: PushSubscription, notification: Notification): boolean {
  return subscription.policy !== "none" && subscription.alerts[notification.type] === true;
}

export async function pushable(
  ctx: ServiceContext,
  subscription: PushSubscription,
  notification: Notification,
): Promise<boolean> {
  if (!wantsType(subscription, notification)) return false;
  const { accountId, fromAccountId } = notification;
  switch (subscription.policy) {
    case "followed":
      return (await ctx.storage.follows.get(accountId, fromAccountId)) !== undefined;
    case "follower":
      return (await ctx.storage.follows.get(fromAccountId, accountId)) !== undefined;
    default:
      return true;
  }
}
