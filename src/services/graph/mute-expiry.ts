// Timed mutes lapse by themselves: a mute whose `expiresAt` has passed is treated as absent
// everywhere it is read (relationships, lists, timeline filters), judged against ctx.clock, so
// no sweeper has to run on time for a mute to end when the user asked.

import type { Mute } from "../../domain/relations.ts";

export function isMuteActive(mute: Mute, now: Date): boolean {
  return mute.expiresAt === null || Date.parse(mute.expiresAt) > now.getTime();
}

/** The mute if it is still in force, undefined otherwise. */
export function activeMute(mute: Mute | undefined, now: Date): Mute | undefined {
  return mute && isMuteActive(mute, now) ? mute : undefined;
}
