// Polls of remote statuses (a Question): created with the counts their server publishes, and
// brought up to date by later documents (Update of the Question). Their server counts the
// votes, ours included (a local vote is sent to it), so its counts replace ours. A closed or
// expired poll goes through the same expiry job as local ones, so local voters hear it ended.

import type { Poll } from "../../domain/poll.ts";
import type { ServiceContext } from "../context.ts";
import { scheduleExpiry } from "../polls/create-poll.ts";
import { withPollLock } from "../polls/poll-lock.ts";
import { dropVotes } from "../polls/update-poll.ts";
import type { RemotePollDraft } from "./drafts.ts";

function totals(draft: RemotePollDraft): { votesCount: number; votersCount: number } {
  const votesCount = draft.options.reduce((sum, o) => sum + o.votesCount, 0);
  // Single choice: one vote per voter. Multiple: the server's votersCount, else the best guess.
  const votersCount = draft.votersCount ?? (draft.multiple ? 0 : votesCount);
  return { votesCount, votersCount };
}

/** The deadline to keep: a poll its server closed ends now at the latest. */
function deadlineOf(ctx: ServiceContext, draft: RemotePollDraft): string | null {
  if (!draft.closed) return draft.expiresAt;
  const now = ctx.clock.now().toISOString();
  return draft.expiresAt !== null && draft.expiresAt < now ? draft.expiresAt : now;
}

export async function createRemotePoll(
  ctx: ServiceContext,
  input: { statusId: string; accountId: string; draft: RemotePollDraft },
): Promise<Poll> {
  const { draft } = input;
  const poll: Poll = {
    id: ctx.ids.next(),
    statusId: input.statusId,
    accountId: input.accountId,
    options: draft.options.map((o) => ({ title: o.title, votesCount: o.votesCount })),
    multiple: draft.multiple,
    hideTotals: false,
    expiresAt: deadlineOf(ctx, draft),
    ...totals(draft),
    closedAt: null,
    createdAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.polls.put(poll);
  await scheduleExpiry(ctx, poll);
  return poll;
}

function sameChoices(poll: Poll, draft: RemotePollDraft): boolean {
  return (
    poll.multiple === draft.multiple &&
    poll.options.length === draft.options.length &&
    poll.options.every((o, i) => o.title === draft.options[i]?.title)
  );
}

/**
 * Applies a newer version of the poll. Returns the stored poll and whether its choices changed
 * (which is an edit of the status; new counts alone are not).
 */
export async function updateRemotePoll(
  ctx: ServiceContext,
  pollId: string,
  draft: RemotePollDraft,
): Promise<{ poll: Poll; choicesChanged: boolean } | undefined> {
  const result = await withPollLock(ctx, pollId, async () => {
    const poll = await ctx.storage.polls.get(pollId);
    if (!poll) return undefined;
    const keep = sameChoices(poll, draft);
    // New choices make earlier votes meaningless, as in a local edit.
    if (!keep) await dropVotes(ctx, poll.id);
    const next: Poll = {
      ...poll,
      options: draft.options.map((o) => ({ title: o.title, votesCount: o.votesCount })),
      multiple: draft.multiple,
      expiresAt: deadlineOf(ctx, draft),
      ...totals(draft),
      // A new deadline reopens a poll that had closed (its server says it is open again).
      closedAt: draft.closed ? poll.closedAt : null,
    };
    await ctx.storage.polls.put(next);
    return { poll: next, choicesChanged: !keep, deadlineMoved: next.expiresAt !== poll.expiresAt };
  });
  if (!result) return undefined;
  if (result.deadlineMoved && result.poll.closedAt === null) await scheduleExpiry(ctx, result.poll);
  return { poll: result.poll, choicesChanged: result.choicesChanged };
}
