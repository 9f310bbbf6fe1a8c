// Unpinning; a status that was not pinned is answered unchanged.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { withKeyLock } from "./keyed-lock.ts";

export async function unpinStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const status = await loadVisibleStatus(ctx, accountId, statusId);
  await withKeyLock(`pin:${accountId}`, () => ctx.storage.pins.delete(accountId, status.id));
  return status;
}
