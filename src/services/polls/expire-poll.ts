// The "poll.expire" job: closes a poll whose deadline has passed and announces it (the
// notification listener tells the author and every voter). Safe to run any number of times:
// a poll already closed, a schedule made stale by an edit that moved the deadline, and a poll
// that is gone are all left alone. A poll reads as expired from its deadline on, before this
// runs; closing is what makes the notifications happen.

import { pollExpired } from "../../domain/poll.ts";
import type { ServiceContext } from "../context.ts";
import { withPollLock } from "./poll-lock.ts";

export async function expirePoll(ctx: ServiceContext, pollId: string): Promise<void> {
  const closed = await withPollLock(ctx, pollId, async () => {
    const poll = await ctx.storage.polls.get(pollId);
    if (!poll || poll.closedAt !== null) return null;
    const now = ctx.clock.now();
    // An edit moved the deadline later: the job queued with the edit will close it.
    if (!pollExpired(poll, now)) return null;
    const done = { ...poll, closedAt: now.toISOString() };
    await ctx.storage.polls.put(done);
    return done;
  });
  if (!closed) return;
  // A deleted post takes its poll with it in Mastodon: nobody is told that it ended.
  const status = await ctx.storage.statuses.get(closed.statusId);
  if (!status || status.deleted) return;
  await ctx.events.publish({ type: "poll.expired", poll: closed });
}
