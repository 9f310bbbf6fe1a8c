// A scheduled status as its author reaches it: another account's, or one already published or
// cancelled, is the same 404 as one that never was (Mastodon's "Record not found").

import { notFound } from "../../domain/errors.ts";
import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { ServiceContext } from "../context.ts";

export async function getOwnScheduled(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<ScheduledStatus> {
  const scheduled = await ctx.storage.scheduledStatuses.get(id);
  if (!scheduled || scheduled.accountId !== accountId) throw notFound();
  return scheduled;
}

/**
 * One change at a time per scheduled status, across processes: publishing, moving and
 * cancelling read the record and act on it, and must not cross (a status published twice, or
 * published after its author cancelled it). Taken before any other lock.
 */
export function withScheduledLock<T>(
  ctx: ServiceContext,
  id: string,
  work: () => Promise<T>,
): Promise<T> {
  return ctx.storage.coordination.withLock(`scheduled-status:${id}`, work);
}
