// The read side of scheduled statuses: the media each one holds, for many at once (a page of
// the list costs one batched lookup).

import type { MediaAttachment } from "../domain/media.ts";
import type { ScheduledStatus } from "../domain/scheduled-status.ts";
import type { ServiceContext } from "../services/context.ts";

export function loadHeldMedia(
  ctx: ServiceContext,
  scheduled: readonly ScheduledStatus[],
): Promise<Map<string, MediaAttachment>> {
  const ids = scheduled.flatMap((s) => s.params.mediaIds ?? []);
  return ids.length > 0 ? ctx.storage.media.getMany(ids) : Promise.resolve(new Map());
}
