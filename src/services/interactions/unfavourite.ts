// Removing a favourite; without one, the status is answered unchanged.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { loadLiveStatus } from "./target.ts";

/** Returns the status, to render with the actor's updated flags. */
export async function unfavouriteStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const remove = (targetId: string) =>
    ctx.storage.coordination.withLock(`favourite:${accountId}:${targetId}`, async () => {
      const favourite = await ctx.storage.favourites.get(accountId, targetId);
      if (!favourite) return false;
      // Recorded before the favourite goes (ADR 0013): a crash after it still sends the Undo.
      return publishIf(ctx.events, { type: "status.unfavourited", favourite }, () =>
        ctx.storage.favourites.delete(accountId, targetId),
      );
    });
  // With an edge removed the actor had seen the status; otherwise it must be visible.
  if (await remove(statusId)) return loadLiveStatus(ctx, statusId);
  const status = await loadVisibleStatus(ctx, accountId, statusId);
  // Acting on a boost acted on its original; undoing through the boost undoes that.
  if (status.reblogOfId !== null) await remove(status.reblogOfId);
  return status;
}
