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
  | "added_to_collection"
  | "collection_update"
  /** Someone the recipient followed moved to another account (`fromAccountId`: the old one). */
  | "move"
  /** Someone signed up (to admins and moderators; `fromAccountId` is the new account). */
  | "admin.sign_up"
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
  "added_to_collection",
  "collection_update",
  "move",
  "admin.sign_up",
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
  /** The collection it is about (added_to_collection, collection_update); absent otherwise. */
  collectionId?: string;
  /** Notifications with the same key are shown as one group (API v2). */
  groupKey: string;
  createdAt: string;
  /**
   * Held back by the recipient's notification policy: out of the lists and counts, shown in
   * the request of its sender until accepted (cleared) or dismissed (deleted). Absent: not held.
   */
  filtered?: boolean;
}
