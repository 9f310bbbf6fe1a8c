// Bookmarking: a private edge per (account, status). A boost is bookmarked as its original;
// bookmarking twice changes nothing.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { originalOf } from "./target.ts";

/** Returns the requested status, to render with the actor's updated flags. */
export async function bookmarkStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const requested = await loadVisibleStatus(ctx, accountId, statusId);
  const target = await originalOf(ctx, requested);
  await ctx.storage.coordination.withLock(`bookmark:${accountId}:${target.id}`, async () => {
    if (await ctx.storage.bookmarks.get(accountId, target.id)) return;
    await ctx.storage.bookmarks.put({
      id: ctx.ids.next(),
      accountId,
      targetId: target.id,
      createdAt: ctx.clock.now().toISOString(),
    });
  });
  return requested;
}
