// What the streaming API hears of a write: ids only, so a signal crosses processes in one small
// message (PostgreSQL NOTIFY payloads stay far below their 8000-byte bound) and every process
// that serves streaming connections renders the entities itself, per connected viewer, through
// the same read side the REST API uses (ADR 0024).

export type StreamSignal =
  /** A status or boost to show (`update`), or an edit of one already shown (`status.update`). */
  | { kind: "status"; event: "update" | "status.update"; statusId: string }
  /** A status was deleted: streams that could have shown it are told its id. */
  | { kind: "delete"; statusId: string }
  /** A notification was stored for `accountId` (filtered ones are not signalled). */
  | { kind: "notification"; accountId: string; notificationId: string }
  /** Held notifications of a sender were let through (a notification request accepted). */
  | { kind: "notifications_merged"; accountId: string }
  /** The user's filters changed. */
  | { kind: "filters_changed"; accountId: string }
  /** An access token was revoked: the streams opened with it end (Mastodon's `kill`). */
  | { kind: "token_revoked"; tokenId: string }
  /** The account may no longer stream (its user disabled or suspended): all its streams end. */
  | { kind: "sessions_revoked"; accountId: string }
  /** An announcement was published or changed. */
  | { kind: "announcement"; announcementId: string }
  /** An announcement was withdrawn or deleted. */
  | { kind: "announcement.delete"; announcementId: string }
  /** The reactions of `name` to an announcement changed. */
  | { kind: "announcement.reaction"; announcementId: string; name: string };

export type StreamSignalKind = StreamSignal["kind"];

const KINDS: ReadonlySet<string> = new Set<StreamSignalKind>([
  "status",
  "delete",
  "notification",
  "notifications_merged",
  "filters_changed",
  "token_revoked",
  "sessions_revoked",
  "announcement",
  "announcement.delete",
  "announcement.reaction",
]);

/** A signal read back from another process, or undefined when it is not one. */
export function parseStreamSignal(text: string): StreamSignal | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== "string" || !KINDS.has(kind)) return undefined;
  // Every field a signal carries is a string: anything else is not one of ours.
  for (const field of Object.values(value)) if (typeof field !== "string") return undefined;
  return value as StreamSignal;
}
