// Timed mutes lapse by themselves: a mute whose `expiresAt` has passed is treated as absent
// everywhere it is read (relationships, lists, timeline filters), judged against ctx.clock, so
// no sweeper has to run on time for a mute to end when the user asked. A job queued at the
// expiry then removes the record, so lapsed mutes do not pile up.

import type { Mute } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";

export function isMuteActive(mute: Mute, now: Date): boolean {
  return mute.expiresAt === null || Date.parse(mute.expiresAt) > now.getTime();
}

/** The mute if it is still in force, undefined otherwise. */
export function activeMute(mute: Mute | undefined, now: Date): Mute | undefined {
  return mute && isMuteActive(mute, now) ? mute : undefined;
}

/** The job that removes a timed mute once it has lapsed (queued when the mute is made). */
export const MUTE_EXPIRE_JOB = "mute.expire";

/** Serialises the writes of one (muter, muted) pair: a mute made again, its removal at expiry. */
export function muteLockKey(accountId: string, targetId: string): string {
  return `mute:${accountId}:${targetId}`;
}

/**
 * The "mute.expire" job: deletes the mute if it has lapsed. A mute made again since (later
 * expiry, or indefinite) is still in force and stays; its own job, if any, comes later. Safe
 * to run any number of times.
 */
export async function removeLapsedMute(
  ctx: ServiceContext,
  accountId: string,
  targetId: string,
): Promise<void> {
  await ctx.storage.coordination.withLock(muteLockKey(accountId, targetId), async () => {
    const mute = await ctx.storage.mutes.get(accountId, targetId);
    if (mute && !isMuteActive(mute, ctx.clock.now())) {
      await ctx.storage.mutes.delete(accountId, targetId);
    }
  });
}
