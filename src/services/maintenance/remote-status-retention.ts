// The daily "status.remote-retention" job (WREN_REMOTE_STATUS_RETENTION_DAYS, Mastodon's content
// cache retention period): remote statuses that came in longer ago than the retention period
// and that nobody here interacted with (retention-keep.ts) are removed for good, with their
// media, versions, polls and notifications (forget-remote-status.ts), so a small instance
// following a few hundred people stops growing without bound, in memory and on disk.
//
// The sweep walks remote statuses below the cutoff id (ids follow the time a status came in)
// newest first, so replies and boosts, newer than what they point at, go before it and free
// it in the same run. Off (0, the default), no run is scheduled and a waiting one ends the
// schedule. A failed run is logged, not retried: the next day's is.

import { getLogger } from "@logtape/logtape";
import { idFromTime } from "../../domain/ids.ts";
import type { Job } from "../../domain/job.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { forgetRemoteStatus } from "../statuses/forget-remote-status.ts";
import { ensureRecurringScheduled, type RecurringJob, scheduleNextRun } from "./recurring-job.ts";
import { lastingKeeps, linkedKeeps } from "./retention-keep.ts";

const logger = getLogger(["wren", "retention"]);

const DAY_MS = 24 * 3600_000;

export const REMOTE_RETENTION_JOB: RecurringJob = {
  type: "status.remote-retention",
  intervalMs: DAY_MS,
  // An hour after the start that turns it on: soon enough to see it work, not in the start's rush.
  firstDelayMs: 3600_000,
  ids: ["status-remote-retention-a", "status-remote-retention-b"],
};

/** Remote statuses read per page. */
const PAGE = 200;

export interface RetentionResult {
  removed: number;
  kept: number;
  failed: number;
}

function retentionDays(ctx: ServiceContext): number {
  return ctx.settings.remoteStatusRetentionDays ?? 0;
}

/** Called at start: schedules the daily run when a retention period is set. */
export async function ensureRemoteRetentionScheduled(ctx: ServiceContext): Promise<void> {
  if (retentionDays(ctx) > 0) await ensureRecurringScheduled(ctx, REMOTE_RETENTION_JOB);
}

/** Removes what it may of one page, counting into `result`. */
async function sweepPage(
  ctx: ServiceContext,
  page: readonly Status[],
  localIds: readonly string[],
  result: RetentionResult,
): Promise<void> {
  const lasting = await lastingKeeps(ctx, page, localIds);
  let candidates = page.filter((s) => !lasting.has(s.id));
  // Rounds: a status kept only by a reply or boost the round before removed is asked again.
  for (;;) {
    const linked = await linkedKeeps(
      ctx,
      candidates.map((s) => s.id),
    );
    const removable = candidates.filter((s) => !linked.has(s.id));
    if (removable.length === 0) break;
    for (const status of removable) {
      try {
        if (await forgetRemoteStatus(ctx, status.id, status.uri)) result.removed++;
      } catch (error) {
        // One status's trouble (a media file host down) must not stop the sweep.
        result.failed++;
        logger.warn("Removing remote status {id} failed: {error}", { id: status.id, error });
      }
    }
    candidates = candidates.filter((s) => linked.has(s.id));
  }
  result.kept += lasting.size + candidates.length;
}

/**
 * Removes the remote statuses older than `days` days that nobody here interacted with; returns
 * what it did.
 */
export async function sweepRemoteStatuses(
  ctx: ServiceContext,
  days: number,
): Promise<RetentionResult> {
  const result: RetentionResult = { removed: 0, kept: 0, failed: 0 };
  if (days <= 0) return result;
  const cutoff = new Date(ctx.clock.now().getTime() - days * DAY_MS);
  const localIds = (await ctx.storage.users.list()).map((user) => user.accountId);
  let maxId = idFromTime(cutoff);
  for (;;) {
    const page = await ctx.storage.statuses.listRemote({ limit: PAGE, maxId });
    await sweepPage(ctx, page, localIds, result);
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) break;
    maxId = last.id;
  }
  return result;
}

/** The job handler: sweeps, then schedules the next run unless retention was turned off. */
export async function runRemoteRetention(ctx: ServiceContext, job: Job): Promise<void> {
  const days = retentionDays(ctx);
  if (days <= 0) return;
  try {
    const { removed, kept, failed } = await sweepRemoteStatuses(ctx, days);
    if (removed > 0 || failed > 0) {
      logger.info("Removed {removed} old remote statuses ({kept} kept, {failed} failed)", {
        removed,
        kept,
        failed,
      });
    }
  } catch (error) {
    logger.error("Removing old remote statuses failed: {error}", { error });
  }
  await scheduleNextRun(ctx, REMOTE_RETENTION_JOB, job);
}
