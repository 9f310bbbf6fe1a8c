// The weekly "status.purge-sweep" job: purges the content of every deleted status whose grace
// period is over and that still holds any (purge-deleted-content.ts). Each deletion queues its
// own purge, but statuses deleted by a Wren older than that job have none, and a purge job that
// gave up leaves its status whole: the sweep catches both. Its first run falls a day after the
// first start that schedules it (with the daily key–value prune), so an upgraded server purges
// its old deletions the next day rather than a week later.

import { getLogger } from "@logtape/logtape";
import type { Job } from "../../domain/job.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import {
  ensureRecurringScheduled,
  type RecurringJob,
  scheduleNextRun,
} from "../maintenance/recurring-job.ts";
import { DELETED_CONTENT_GRACE_MS, purgeDeletedContent } from "./purge-deleted-content.ts";

const logger = getLogger(["wren", "statuses"]);

export const PURGE_SWEEP_JOB: RecurringJob = {
  type: "status.purge-sweep",
  // Weekly: it only catches what the per-status jobs missed, and reads every tombstone.
  intervalMs: 7 * 24 * 3600_000,
  firstDelayMs: 24 * 3600_000,
  ids: ["status-purge-sweep-a", "status-purge-sweep-b"],
};

/** Tombstones read per page. */
const PAGE = 200;

export function ensurePurgeSweepScheduled(ctx: ServiceContext): Promise<void> {
  return ensureRecurringScheduled(ctx, PURGE_SWEEP_JOB);
}

/**
 * Whether a deleted status still holds what its purge removes. A purge empties the edit history
 * before the status, so a status emptied is one whose history is gone too.
 */
function holdsContent(s: Status): boolean {
  return (
    s.text !== "" ||
    s.contentHtml !== "" ||
    s.spoilerText !== "" ||
    s.mentionIds.length > 0 ||
    s.tags.length > 0 ||
    s.mediaIds.length > 0
  );
}

/** Purges every deleted status past its grace period that still holds content; returns counts. */
export async function sweepDeletedContent(
  ctx: ServiceContext,
): Promise<{ purged: number; failed: number }> {
  const cutoff = ctx.clock.now().getTime() - DELETED_CONTENT_GRACE_MS;
  let purged = 0;
  let failed = 0;
  let maxId: string | undefined;
  for (;;) {
    const page = await ctx.storage.statuses.listDeleted({ limit: PAGE, maxId });
    for (const status of page) {
      const deletedAt = Date.parse(status.deletedAt ?? "");
      // No time: deleted by a Wren that did not record one, long before this sweep existed.
      if (!holdsContent(status) || deletedAt > cutoff) continue;
      try {
        if (await purgeDeletedContent(ctx, status.id)) purged++;
      } catch (error) {
        // One status's trouble (a media file host down) must not stop the sweep.
        failed++;
        logger.warn("Purging deleted status {id} failed: {error}", { id: status.id, error });
      }
    }
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) break;
    maxId = last.id;
  }
  return { purged, failed };
}

/** The job handler. A failed sweep is logged, not retried: the next run is the retry. */
export async function runPurgeSweep(ctx: ServiceContext, job: Job): Promise<void> {
  try {
    const { purged, failed } = await sweepDeletedContent(ctx);
    if (purged > 0 || failed > 0) {
      logger.info("Purged the content of {purged} deleted statuses ({failed} failed)", {
        purged,
        failed,
      });
    }
  } catch (error) {
    logger.error("Sweeping deleted statuses for purging failed: {error}", { error });
  }
  await scheduleNextRun(ctx, PURGE_SWEEP_JOB, job);
}
