// Remote accounts our moderators suspended before a suspension stored its deletion job (ADR 0028)
// have none, and the daily sweep reads only local accounts: their data would be kept for good.
// Once per instance, at the first start that has this code, the remote accounts are walked (as
// polls are at every start, repair-poll-counts.ts: pages of ids, one time) and each such
// suspension gets its job, due when it would have been (at once for those past their 30 days).
// Local suspensions need nothing: the sweep covers them.
//
// Many processes may start together on one PostgreSQL: the walk holds a lock shared by every
// process and is skipped once a key-value marker says it was done, so the second process to start
// waits for the first and adds nothing. The jobs have the suspension's fixed id
// (suspensionPurgeJobId), which a suspension made since also uses; one already there is left as
// it is (rewriting a claimed job would free it for a second runner).

import { getLogger } from "@logtape/logtape";
import { isLocallySuspended } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { walkPages } from "../paging.ts";
import { purgeDueAt, SUSPENSION_PURGE_JOB, suspensionPurgeJobId } from "./suspension-expiry.ts";

const logger = getLogger(["wren", "moderation"]);

const LOCK = "account-suspension-purge-backfill";
/** Set when the walk is done: later starts only read it. */
export const BACKFILL_DONE_KEY = ["maintenance", "suspension-purge-backfill"];

/**
 * Called when a process that runs jobs starts, before its runner: a deletion job for every remote
 * account suspended by us whose data is still kept and that has none; returns how many were added
 * (0 once done: a new instance's first start only sets the marker).
 */
export function backfillSuspensionPurges(ctx: ServiceContext): Promise<number> {
  return ctx.storage.coordination.withLock(LOCK, async () => {
    if (await ctx.storage.kv.get(BACKFILL_DONE_KEY)) return 0;
    const now = ctx.clock.now();
    let added = 0;
    for await (const account of walkPages((page) =>
      ctx.storage.accounts.list({ origin: "remote" }, page),
    )) {
      const suspendedAt = account.suspendedAt;
      if (!isLocallySuspended(account) || suspendedAt === undefined) continue;
      const id = suspensionPurgeJobId(account.id, suspendedAt);
      if (await ctx.storage.jobs.get(id)) continue;
      const due = purgeDueAt(suspendedAt);
      await ctx.storage.jobs.put({
        id,
        type: SUSPENSION_PURGE_JOB,
        payload: { accountId: account.id, suspendedAt },
        runAt: (due.getTime() > now.getTime() ? due : now).toISOString(),
        attempts: 0,
        lastError: null,
        failedAt: null,
        createdAt: now.toISOString(),
      });
      added++;
    }
    await ctx.storage.kv.set({
      key: BACKFILL_DONE_KEY,
      value: { doneAt: ctx.clock.now().toISOString(), added },
      expiresAt: null,
    });
    if (added > 0) {
      logger.info("Scheduled the data deletion of {added} remote accounts suspended earlier", {
        added,
      });
    }
    return added;
  });
}
