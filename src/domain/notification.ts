// A notification as stored: who receives it, what happened, who did it, about which status.

export type NotificationType =
  | "mention"
  | "status"
  | "reblog"
  | "follow"
  | "follow_request"
  | "favourite"
  | "poll"
  | "update"
  | "quote"
  /** A status the recipient quoted was edited; the notification's status is their quote. */
  | "quoted_update";

export const NOTIFICATION_TYPES: readonly NotificationType[] = [
  "mention",
  "status",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "poll",
  "update",
  "quote",
  "quoted_update",
];

export interface Notification {
  id: string;
  /** The recipient. */
  accountId: string;
  type: NotificationType;
  /** Who caused it (for `poll`, the poll's author). */
  fromAccountId: string;
  statusId: string | null;
  /** Notifications with the same key are shown as one group (API v2). */
  groupKey: string;
  createdAt: string;
  /**
   * Held back by the recipient's notification policy: out of the lists and counts, shown in
   * the request of its sender until accepted (cleared) or dismissed (deleted). Absent: not held.
   */
  filtered?: boolean;
}
