// Stores the poll of a status being posted and puts its expiry on the durable job queue, so
// voting closes and everyone involved is told even if the server restarts in between.

import type { Poll } from "../../domain/poll.ts";
import type { ServiceContext } from "../context.ts";
import type { CheckedPoll } from "./poll-params.ts";

export const POLL_EXPIRE_JOB = "poll.expire";

/** Queues the expiry of the poll at its deadline (the handler ignores stale schedules). */
export async function scheduleExpiry(ctx: ServiceContext, poll: Poll): Promise<void> {
  if (poll.expiresAt === null) return;
  await ctx.jobs.enqueue(POLL_EXPIRE_JOB, { pollId: poll.id }, { runAt: new Date(poll.expiresAt) });
}

/** When a poll asked to stay open `expiresIn` seconds closes, counted from now. */
export function deadlineFrom(ctx: ServiceContext, expiresIn: number): string {
  return new Date(ctx.clock.now().getTime() + expiresIn * 1000).toISOString();
}

/**
 * Creates the poll for `statusId` (call before storing the status, which then carries
 * `pollId`). The input must have passed checkPollParams.
 */
export async function createPoll(
  ctx: ServiceContext,
  input: { statusId: string; accountId: string; poll: CheckedPoll },
): Promise<Poll> {
  const poll: Poll = {
    id: ctx.ids.next(),
    statusId: input.statusId,
    accountId: input.accountId,
    options: input.poll.options.map((title) => ({ title, votesCount: 0 })),
    multiple: input.poll.multiple,
    hideTotals: input.poll.hideTotals,
    expiresAt: deadlineFrom(ctx, input.poll.expiresIn),
    votesCount: 0,
    votersCount: 0,
    closedAt: null,
    createdAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.polls.put(poll);
  await scheduleExpiry(ctx, poll);
  return poll;
}
