// A remote Delete of a post: the status keeps its record with the internal `deleted` flag, as
// a local deletion does (the API answers 404 from then on), boosts of it go with it, and
// `status.deleted` takes its notifications away.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { markDeleted } from "../statuses/delete-status.ts";

/** Returns the deleted status; a status already deleted is returned as it is. */
export async function deleteRemoteStatus(ctx: ServiceContext, target: Status): Promise<Status> {
  return ctx.storage.coordination.withLock(`remote-status:${target.uri}`, async () => {
    const status = (await ctx.storage.statuses.get(target.id)) ?? target;
    if (status.deleted || status.local) return status;
    return markDeleted(ctx, status);
  });
}
