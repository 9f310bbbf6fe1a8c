// The "poll.expire" job: closes a poll whose deadline has passed and announces it (the
// notification listener tells the author and every voter). Safe to run any number of times:
// a poll already closed, a schedule made stale by an edit that moved the deadline, and a poll
// that is gone are all left alone. A poll reads as expired from its deadline on, before this
// runs; closing is what makes the notifications happen.

import { pollExpired } from "../../domain/poll.ts";
import type { ServiceContext } from "../context.ts";
import type { PendingEvent } from "../events.ts";
import { withPollLock } from "./poll-lock.ts";

export async function expirePoll(ctx: ServiceContext, pollId: string): Promise<void> {
  let pending: PendingEvent | undefined;
  await withPollLock(ctx, pollId, async () => {
    const poll = await ctx.storage.polls.get(pollId);
    if (!poll || poll.closedAt !== null) return;
    const now = ctx.clock.now();
    // An edit moved the deadline later: the job queued with the edit will close it.
    if (!pollExpired(poll, now)) return;
    const done = { ...poll, closedAt: now.toISOString() };
    // A deleted post takes its poll with it in Mastodon: nobody is told that it ended.
    const status = await ctx.storage.statuses.get(done.statusId);
    const announce = status !== undefined && !status.deleted;
    // Recorded before the poll is closed (ADR 0013): a crash after it still tells the voters
    // (this job would find the poll closed and do nothing). The listeners run after the lock.
    if (announce) pending = await ctx.events.intend({ type: "poll.expired", poll: done });
    try {
      await ctx.storage.polls.put(done);
    } catch (error) {
      await pending?.abandon().catch(() => {});
      pending = undefined;
      throw error;
    }
  });
  await pending?.published();
}
