// DELETE /api/v1/scheduled_statuses/:id: the status will not be published; the media it held is
// the author's to use again (Mastodon nullifies it too). The media goes back first, then the
// record, then the job: a crash in between leaves a record whose media is free again (published
// with it if still unused) or a job that finds nothing, never media held by nothing.

import type { ServiceContext } from "../context.ts";
import { releaseMedia } from "../media/attach-media.ts";
import { getOwnScheduled, withScheduledLock } from "./own-scheduled.ts";

export async function cancelScheduledStatus(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<void> {
  await withScheduledLock(ctx, id, async () => {
    const scheduled = await getOwnScheduled(ctx, accountId, id);
    await releaseMedia(ctx, scheduled.params.mediaIds ?? [], id);
    await ctx.storage.scheduledStatuses.delete(id);
    if (scheduled.jobId !== null) await ctx.jobs.cancel(scheduled.jobId);
  });
}
