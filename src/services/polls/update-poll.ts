// The poll part of editing a status (PUT /api/v1/statuses/:id). As in Mastodon, the deadline
// is set again from `expires_in`, and changing the options or the single/multiple choice makes
// earlier votes meaningless, so they are dropped and the counts start again; changing only the
// deadline or hide_totals keeps them. A status without a poll gets a new one.

import type { Poll } from "../../domain/poll.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { createPoll, deadlineFrom, scheduleExpiry } from "./create-poll.ts";
import { withPollLock } from "./poll-lock.ts";
import type { CheckedPoll } from "./poll-params.ts";

const PAGE = 200;

/** Forgets every vote of a poll (its choices changed, so they no longer mean anything). */
export async function dropVotes(ctx: ServiceContext, pollId: string): Promise<void> {
  for (;;) {
    const votes = await ctx.storage.pollVotes.listTo(pollId, { limit: PAGE });
    if (votes.length === 0) return;
    await Promise.all(votes.map((v) => ctx.storage.pollVotes.delete(v.accountId, pollId)));
  }
}

function sameChoices(poll: Poll, wanted: CheckedPoll): boolean {
  return (
    poll.multiple === wanted.multiple &&
    poll.options.length === wanted.options.length &&
    poll.options.every((o, i) => o.title === wanted.options[i])
  );
}

/** Applies the edited poll to the status's poll (or creates one); returns the stored poll. */
export async function replacePoll(
  ctx: ServiceContext,
  status: Status,
  wanted: CheckedPoll,
): Promise<Poll> {
  const current = status.pollId ? await ctx.storage.polls.get(status.pollId) : undefined;
  if (!current) {
    return createPoll(ctx, { statusId: status.id, accountId: status.accountId, poll: wanted });
  }
  const updated = await withPollLock(ctx, current.id, async () => {
    const poll = (await ctx.storage.polls.get(current.id)) ?? current;
    const keepVotes = sameChoices(poll, wanted);
    if (!keepVotes) await dropVotes(ctx, poll.id);
    const next: Poll = {
      ...poll,
      options: keepVotes ? poll.options : wanted.options.map((title) => ({ title, votesCount: 0 })),
      multiple: wanted.multiple,
      hideTotals: wanted.hideTotals,
      expiresAt: deadlineFrom(ctx, wanted.expiresIn),
      votesCount: keepVotes ? poll.votesCount : 0,
      votersCount: keepVotes ? poll.votersCount : 0,
      // A new deadline reopens a poll that had closed.
      closedAt: null,
    };
    await ctx.storage.polls.put(next);
    return next;
  });
  await scheduleExpiry(ctx, updated);
  return updated;
}
