// Undoing a boost marks the actor's reblog deleted (it keeps its file, as every deleted status
// does). Without a boost to undo, the status is answered unchanged, as Mastodon does.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { loadLiveStatus } from "./target.ts";

/** Returns the original status, now without the actor's boost. */
export async function unreblogStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const undo = (originalId: string) =>
    ctx.storage.coordination.withLock(`reblog:${accountId}:${originalId}`, async () => {
      const reblog = await ctx.storage.statuses.findReblog(accountId, originalId);
      if (!reblog) return false;
      const now = ctx.clock.now().toISOString();
      const deleted: Status = { ...reblog, deleted: true, deletedAt: now };
      // Recorded before the flag (ADR 0013): a crash after it still sends the Undo.
      await publishAround(ctx.events, { type: "status.deleted", status: deleted }, () =>
        ctx.storage.statuses.put(deleted),
      );
      return true;
    });
  // Having boosted it, the actor saw it; otherwise the status must be visible to them.
  if (await undo(statusId)) return loadLiveStatus(ctx, statusId);
  const status = await loadVisibleStatus(ctx, accountId, statusId);
  if (status.reblogOfId === null) return status;
  // Given a boost (anyone's), undo the actor's boost of the same original and answer that.
  await undo(status.reblogOfId);
  return loadLiveStatus(ctx, status.reblogOfId);
}
