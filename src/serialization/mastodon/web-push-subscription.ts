// Mastodon's WebPushSubscription entity (the /api/v1/push/subscription methods). Every alert
// type is listed, false unless asked for: some apps decode the alerts as a fixed structure.

import {
  PUSH_ALERT_TYPES,
  type PushAlertType,
  type PushPolicy,
  type PushSubscription,
} from "../../domain/push-subscription.ts";

export interface WebPushSubscriptionJson {
  id: string;
  endpoint: string;
  standard: boolean;
  alerts: Record<PushAlertType, boolean>;
  policy: PushPolicy;
  /** The instance's public VAPID key, which the push service checks signatures against. */
  server_key: string;
}

export function serializeWebPushSubscription(
  subscription: PushSubscription,
  serverKey: string,
): WebPushSubscriptionJson {
  const alerts = {} as Record<PushAlertType, boolean>;
  for (const type of PUSH_ALERT_TYPES) alerts[type] = subscription.alerts[type] === true;
  return {
    id: subscription.id,
    endpoint: subscription.endpoint,
    standard: subscription.standard,
    alerts,
    policy: subscription.policy,
    server_key: serverKey,
  };
}
