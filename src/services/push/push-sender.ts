// The port through which a notification reaches a subscriber's push service: the implementation
// (federation/push-sender.ts) writes Mastodon's payload, encrypts it for the subscription's keys,
// signs the request with the VAPID key and posts it under the guarded fetch (private addresses
// refused). Contexts without it (CLI, unit tests) push nothing.

import type { Account } from "../../domain/account.ts";
import type { Notification } from "../../domain/notification.ts";
import type { PushSubscription } from "../../domain/push-subscription.ts";
import type { Status } from "../../domain/status.ts";
import type { VapidKeys } from "./vapid-keys.ts";

/** RFC 8030 §5.3. */
export type PushUrgency = "very-low" | "low" | "normal" | "high";

export interface PushMessage {
  subscription: PushSubscription;
  notification: Notification;
  /** Who caused it, and the status it is about (null for follows). */
  from: Account;
  status: Status | null;
  /** The recipient's language. */
  locale: string;
  vapid: VapidKeys;
  /** How long the push service keeps the message for an offline subscriber (seconds). */
  ttlSeconds: number;
  urgency: PushUrgency;
}

export interface PushSender {
  /**
   * The push service's answer (its status, and its Retry-After header when it gave one);
   * throws when the request could not be made or was refused.
   */
  send(message: PushMessage): Promise<{ status: number; retryAfter?: string | null }>;
}
