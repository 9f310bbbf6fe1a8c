// A suspension by our moderators is reversible for SUSPENSION_GRACE_DAYS; then the account's data
// is deleted, as Mastodon deletes it when the AccountDeletionRequest its suspension made falls
// due (Scheduler::SuspendedUserCleanupScheduler → Admin::AccountDeletionWorker). Here the request
// is a job on the durable queue, stored with the suspension itself (JobQueue.enqueueAround: never
// later than the account's record), due at the end of the grace period: one runner in one
// process claims it, and a restart keeps it. It carries the suspension's time, so a job left from
// a suspension that was lifted (and perhaps made again later) does nothing.
//
// A daily sweep (a recurring job, as jobs.prune_failed) catches the local suspensions that have
// no such job: those made before it existed. Local accounts are few (one per user), so it reads
// them all; remote accounts are not swept (they can be many, and the store has no index of
// suspended ones): their old suspensions get their jobs once, from suspension-purge-backfill.ts.
// The job's id is fixed per suspension, so that backfill never adds a second one.

import { getLogger } from "@logtape/logtape";
import { isLocallySuspended } from "../../domain/account.ts";
import type { Job } from "../../domain/job.ts";
import type { ServiceContext } from "../context.ts";
import { enqueueWithWrite } from "../job-queue.ts";
import {
  ensureRecurringScheduled,
  type RecurringJob,
  scheduleNextRun,
} from "../maintenance/recurring-job.ts";

const logger = getLogger(["wren", "moderation"]);

/** Mastodon's AccountDeletionRequest::DELAY_TO_DELETION. */
export const SUSPENSION_GRACE_DAYS = 30;

export const SUSPENSION_PURGE_JOB = "account.purge_suspended";

export const SUSPENSION_SWEEP_JOB: RecurringJob = {
  type: "account.suspension_sweep",
  intervalMs: 24 * 3600_000,
  ids: ["account-suspension-sweep-a", "account-suspension-sweep-b"],
};

/** When the data of an account suspended at `suspendedAt` (ISO) is deleted. */
export function purgeDueAt(suspendedAt: string): Date {
  return new Date(Date.parse(suspendedAt) + SUSPENSION_GRACE_DAYS * 24 * 3600_000);
}

/** The id of the deletion job of the suspension of `accountId` made at `suspendedAt`. */
export function suspensionPurgeJobId(accountId: string, suspendedAt: string): string {
  return `account-purge-${accountId}-${Date.parse(suspendedAt)}`;
}

/** Runs `write` (the suspension's record) with its deletion job stored no later than it. */
export async function withSuspensionPurge(
  ctx: ServiceContext,
  accountId: string,
  suspendedAt: string,
  write: () => Promise<void>,
): Promise<void> {
  const runAt = purgeDueAt(suspendedAt);
  await enqueueWithWrite(
    ctx.jobs,
    SUSPENSION_PURGE_JOB,
    { accountId, suspendedAt },
    { runAt, id: suspensionPurgeJobId(accountId, suspendedAt) },
    write,
  );
}

/**
 * The SUSPENSION_PURGE_JOB: whether the suspension it was made for still stands (by our
 * moderators, at that time, data not yet deleted). `deleteData` does the deletion (injected:
 * moderate-account.ts owns it and imports this file).
 */
export async function purgeExpiredSuspension(
  ctx: ServiceContext,
  accountId: string,
  suspendedAt: string,
  deleteData: (accountId: string) => Promise<unknown>,
): Promise<boolean> {
  const account = await ctx.storage.accounts.get(accountId);
  if (!account || !isLocallySuspended(account) || account.suspendedAt !== suspendedAt) {
    return false;
  }
  await deleteData(accountId);
  return true;
}

export function ensureSuspensionSweepScheduled(ctx: ServiceContext): Promise<void> {
  return ensureRecurringScheduled(ctx, SUSPENSION_SWEEP_JOB);
}

/** Deletes the data of the local accounts whose grace period is over; returns how many. */
export async function sweepExpiredLocalSuspensions(
  ctx: ServiceContext,
  deleteData: (accountId: string) => Promise<unknown>,
): Promise<number> {
  const users = await ctx.storage.users.list();
  const accounts = await ctx.storage.accounts.getMany(users.map((u) => u.accountId));
  const now = ctx.clock.now().getTime();
  let deleted = 0;
  for (const account of accounts.values()) {
    const at = account.suspendedAt;
    if (!isLocallySuspended(account) || at === undefined || purgeDueAt(at).getTime() > now) {
      continue;
    }
    try {
      if (await purgeExpiredSuspension(ctx, account.id, at, deleteData)) deleted++;
    } catch (error) {
      // One account's trouble must not stop the others; tomorrow's sweep tries again.
      logger.error("Deleting the data of suspended account {id} failed: {error}", {
        id: account.id,
        error,
      });
    }
  }
  return deleted;
}

export async function runSuspensionSweep(
  ctx: ServiceContext,
  job: Job,
  deleteData: (accountId: string) => Promise<unknown>,
): Promise<void> {
  const deleted = await sweepExpiredLocalSuspensions(ctx, deleteData).catch((error) => {
    logger.error("The sweep of suspended accounts failed: {error}", { error });
    return 0;
  });
  if (deleted > 0) logger.info("Deleted the data of {deleted} suspended accounts", { deleted });
  await scheduleNextRun(ctx, SUSPENSION_SWEEP_JOB, job);
}
