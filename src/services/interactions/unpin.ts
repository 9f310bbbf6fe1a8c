// Unpinning; a status that was not pinned is answered unchanged.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";

export async function unpinStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const status = await loadVisibleStatus(ctx, accountId, statusId);
  await ctx.storage.coordination.withLock(`pin:${accountId}`, () =>
    ctx.storage.pins.delete(accountId, status.id),
  );
  return status;
}
