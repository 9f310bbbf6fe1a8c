// Group keys for the grouped notifications API (Mastodon's Notification::Groups): favourites
// and boosts of one status, and follows, made within a few hours of each other share a key
// `<type>[-<status id>]-<hour bucket>`; a group keeps absorbing new notifications until it spans
// twelve hours, then the next one starts a new group. Other types get `ungrouped-<id>`.

import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { ServiceContext } from "../context.ts";

export const GROUPABLE_TYPES: readonly NotificationType[] = ["favourite", "reblog", "follow"];

const HOUR_MS = 3_600_000;
/** Mastodon's MAXIMUM_GROUP_SPAN_HOURS. */
const MAX_GROUP_SPAN_HOURS = 12;
const SCAN_BATCH = 100;

export function ungroupedKey(notificationId: string): string {
  return `ungrouped-${notificationId}`;
}

function prefixOf(type: NotificationType, statusId: string | null): string | null {
  if (type === "favourite" || type === "reblog") return statusId ? `${type}-${statusId}` : null;
  if (type === "follow") return type;
  return null;
}

export interface ParsedGroupKey {
  type: NotificationType;
  /** The hour bucket the group started in. */
  bucket: number;
}

/** The type and starting hour of a grouped key; null for `ungrouped-…` and unknown keys. */
export function parseGroupKey(key: string): ParsedGroupKey | null {
  const match = /^(favourite|reblog)-[0-9]+-([0-9]+)$|^(follow)-([0-9]+)$/.exec(key);
  if (!match) return null;
  const type = (match[1] ?? match[3]) as NotificationType;
  return { type, bucket: Number(match[2] ?? match[4]) };
}

export function bucketStart(bucket: number): number {
  return bucket * HOUR_MS;
}

/** The bucket of the recipient's most recent group with this prefix, if it can still grow. */
async function openBucket(
  ctx: ServiceContext,
  recipientId: string,
  type: NotificationType,
  prefix: string,
  hour: number,
): Promise<number | undefined> {
  // Only groups that started within the span can still take new members, so the scan stops
  // at notifications older than that.
  const oldest = (hour - MAX_GROUP_SPAN_HOURS) * HOUR_MS;
  let maxId: string | undefined;
  for (;;) {
    const batch = await ctx.storage.notifications.listFor(
      recipientId,
      { limit: SCAN_BATCH, maxId },
      { types: [type] },
    );
    for (const n of batch) {
      if (Date.parse(n.createdAt) < oldest) return undefined;
      if (n.groupKey.startsWith(`${prefix}-`)) {
        const parsed = parseGroupKey(n.groupKey);
        return parsed && hour < parsed.bucket + MAX_GROUP_SPAN_HOURS ? parsed.bucket : undefined;
      }
    }
    if (batch.length < SCAN_BATCH) return undefined;
    maxId = batch.at(-1)?.id;
  }
}

export async function groupKeyFor(
  ctx: ServiceContext,
  draft: Pick<Notification, "id" | "accountId" | "type" | "statusId" | "createdAt">,
): Promise<string> {
  const prefix = prefixOf(draft.type, draft.statusId);
  if (prefix === null) return ungroupedKey(draft.id);
  const hour = Math.floor(Date.parse(draft.createdAt) / HOUR_MS);
  const bucket = (await openBucket(ctx, draft.accountId, draft.type, prefix, hour)) ?? hour;
  return `${prefix}-${bucket}`;
}
