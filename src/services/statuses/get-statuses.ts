// Reading statuses by id: one (GET /api/v1/statuses/:id) or several in one request
// (GET /api/v1/statuses?id[]=…), each only if the viewer may see it.

import { unprocessable } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus, visibleStatuses } from "./visibility.ts";

/** Mastodon's cap on ids per multi-get request. */
export const MAX_STATUS_IDS = 20;

export function getStatus(
  ctx: ServiceContext,
  viewerId: string | null,
  statusId: string,
): Promise<Status> {
  return loadVisibleStatus(ctx, viewerId, statusId);
}

/** The visible ones among `ids`, in the order asked, each once; unknown ids are skipped. */
export async function getStatuses(
  ctx: ServiceContext,
  viewerId: string | null,
  ids: readonly string[],
): Promise<Status[]> {
  const unique = [...new Set(ids)];
  if (unique.length > MAX_STATUS_IDS) {
    const description = `at most ${MAX_STATUS_IDS} ids per request`;
    throw unprocessable(`Validation failed: Id ${description}`, {
      details: { id: [{ error: "ERR_TOO_LONG", description }] },
    });
  }
  const found = await ctx.storage.statuses.getMany(unique);
  const statuses = unique.flatMap((id) => {
    const s = found.get(id);
    return s ? [s] : [];
  });
  return visibleStatuses(ctx, viewerId, statuses);
}
