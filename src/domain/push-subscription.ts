// A Web Push subscription (Mastodon's Web::PushSubscription): where a push service waits for the
// encrypted notifications of one access token's app, with the keys to encrypt them and which of
// them the app wants. One per access token; revoking the token removes it.

/**
 * The notification types a subscription may ask for: Mastodon's Notification::TYPES, and every
 * type Wren makes (domain/notification.ts; services/push/pushable.ts fails to compile without).
 */
export const PUSH_ALERT_TYPES = [
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
  "quote",
  "quoted_update",
  "severed_relationships",
  "moderation_warning",
  "annual_report",
  "added_to_collection",
  "collection_update",
  "move",
] as const;

export type PushAlertType = (typeof PUSH_ALERT_TYPES)[number];

/** Whose notifications are pushed: everyone's, those the user follows, their followers, nobody's. */
export type PushPolicy = "all" | "followed" | "follower" | "none";

export const PUSH_POLICIES: readonly PushPolicy[] = ["all", "followed", "follower", "none"];

export interface PushSubscription {
  /** The subscription's own id (a new one each time the app subscribes again). */
  id: string;
  /** The access token it belongs to: its key, one subscription per token. */
  tokenId: string;
  accountId: string;
  /**
   * The access token itself: Mastodon's push payload carries it, and apps (Elk among them) tell
   * by it which of their accounts a message is for. Kept only here (ADR 0025).
   */
  accessToken: string;
  /** The push service's URL for this subscriber. */
  endpoint: string;
  /** The subscriber's ECDH P-256 public key and its 16-byte auth secret, base64url. */
  keys: { p256dh: string; auth: string };
  /** RFC 8291 (aes128gcm) when true; the legacy draft (aesgcm) otherwise. */
  standard: boolean;
  /** The types asked for; the others are off. */
  alerts: Partial<Record<PushAlertType, boolean>>;
  policy: PushPolicy;
  createdAt: string;
  updatedAt: string;
}
