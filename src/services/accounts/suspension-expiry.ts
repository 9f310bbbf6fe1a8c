// A suspension by our moderators is reversible for SUSPENSION_GRACE_DAYS; then the account's data
// is deleted, as Mastodon deletes it when the AccountDeletionRequest its suspension made falls
// due (Scheduler::SuspendedUserCleanupScheduler → Admin::AccountDeletionWorker). Here the request
// is a job on the durable queue, stored with the suspension itself (JobQueue.enqueueAround: never
// later than the account's record), due at the end of the grace period: one runner in one
// process claims it, and a restart keeps it. It carries the suspension's time, so a job left from
// a suspension that was lifted (and perhaps made again later) does nothing.

import { isLocallySuspended } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { enqueueWithWrite } from "../job-queue.ts";

/** Mastodon's AccountDeletionRequest::DELAY_TO_DELETION. */
export const SUSPENSION_GRACE_DAYS = 30;

export const SUSPENSION_PURGE_JOB = "account.purge_suspended";

/** When the data of an account suspended at `suspendedAt` (ISO) is deleted. */
export function purgeDueAt(suspendedAt: string): Date {
  return new Date(Date.parse(suspendedAt) + SUSPENSION_GRACE_DAYS * 24 * 3600_000);
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
    { runAt },
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
