// How many notifications arrived after the notifications read marker (all of them without a
// marker), capped by `limit`, as Mastodon counts them for badges.

import type { ServiceContext } from "../context.ts";
import { type NotificationQuery, storeFilter } from "./shown.ts";

/** The id the recipient has read up to, if they ever set the marker. */
export async function lastReadId(
  ctx: ServiceContext,
  recipientId: string,
): Promise<string | undefined> {
  return (await ctx.storage.markers.get(recipientId, "notifications"))?.lastReadId;
}

export async function countUnread(
  ctx: ServiceContext,
  recipientId: string,
  query: NotificationQuery,
  limit: number,
): Promise<number> {
  if (query.types.length === 0) return 0;
  const sinceId = await lastReadId(ctx, recipientId);
  return ctx.storage.notifications.countFor(recipientId, {
    limit,
    filter: storeFilter(query),
    ...(sinceId !== undefined ? { sinceId } : {}),
  });
}
