// Favouriting: one edge per (account, status). Favouriting a boost favourites its original;
// favouriting twice changes nothing.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { blocksAuthor, notAllowed, originalOf } from "./target.ts";

/** Returns the requested status, to render with the actor's updated flags. */
export async function favouriteStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const requested = await loadVisibleStatus(ctx, accountId, statusId);
  const target = await originalOf(ctx, requested);
  if (await blocksAuthor(ctx, accountId, target.accountId)) throw notAllowed();
  await ctx.storage.coordination.withLock(`favourite:${accountId}:${target.id}`, async () => {
    if (await ctx.storage.favourites.get(accountId, target.id)) return;
    const favourite = {
      id: ctx.ids.next(),
      accountId,
      targetId: target.id,
      createdAt: ctx.clock.now().toISOString(),
      uri: null,
    };
    // Only a new favourite is an event: favouriting twice notifies once. Recorded before the
    // favourite (ADR 0013): a crash after it still sends the Like.
    await publishAround(ctx.events, { type: "status.favourited", favourite, status: target }, () =>
      ctx.storage.favourites.put(favourite),
    );
  });
  return requested;
}
