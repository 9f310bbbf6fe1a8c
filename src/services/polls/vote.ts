// Voting on a poll (POST /api/v1/polls/:id/votes), with Mastodon's rules: the poll's status
// must be visible to the voter (else 404; an author's block hides it), a voter who blocks the
// author is refused (403), and each choice is checked in turn — ended poll, unknown option,
// own poll, already voted — with every problem of the first bad choice reported together, as
// Mastodon's vote validation does. A single-choice poll given two choices fails on the second
// as "already voted", as there.

import { AppError } from "../../domain/errors.ts";
import { type Poll, type PollVote, pollExpired } from "../../domain/poll.ts";
import { tallyVotes } from "../../views/poll-tally.ts";
import type { ServiceContext } from "../context.ts";
import type { PendingEvent } from "../events.ts";
import { followUp } from "../follow-up.ts";
import { blocksAuthor, notAllowed } from "../interactions/target.ts";
import { loadVisiblePoll } from "./get-poll.ts";
import { withPollLock } from "./poll-lock.ts";

export const POLL_ERRORS = {
  expired: "The poll has already ended",
  invalidChoice: "The chosen vote option does not exist",
  selfVote: "You cannot vote in your own polls",
  alreadyVoted: "You have already voted on this poll",
} as const;

function parseChoice(raw: string | number): number {
  const n = typeof raw === "number" ? raw : /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  // Anything that is not a whole number names no option.
  return Number.isSafeInteger(n) ? n : -1;
}

function problemsOf(
  poll: Poll,
  voterId: string,
  now: Date,
  choice: number,
  earlier: readonly number[],
  previous: PollVote | undefined,
): string[] {
  const problems: string[] = [];
  if (pollExpired(poll, now) || poll.closedAt !== null) problems.push(POLL_ERRORS.expired);
  if (choice < 0 || choice >= poll.options.length) problems.push(POLL_ERRORS.invalidChoice);
  if (voterId === poll.accountId) problems.push(POLL_ERRORS.selfVote);
  const voted = poll.multiple
    ? earlier.includes(choice) || (previous?.choices.includes(choice) ?? false)
    : earlier.length > 0 || previous !== undefined;
  if (voted) problems.push(POLL_ERRORS.alreadyVoted);
  return problems;
}

/** Records the vote and returns the poll with its new counts. */
export async function votePoll(
  ctx: ServiceContext,
  input: { accountId: string; pollId: string; choices: readonly (string | number)[] },
): Promise<Poll> {
  const { accountId } = input;
  const found = await loadVisiblePoll(ctx, accountId, input.pollId);
  if (await blocksAuthor(ctx, accountId, found.accountId)) throw notAllowed();
  const choices = input.choices.map(parseChoice);
  // Mastodon treats an empty vote as nothing to do and answers with the poll unchanged.
  if (choices.length === 0) return found;

  let pending: PendingEvent | undefined;
  const result = await withPollLock(ctx, found.id, async () => {
    const poll = (await ctx.storage.polls.get(found.id)) ?? found;
    const previous = await ctx.storage.pollVotes.get(accountId, poll.id);
    const now = ctx.clock.now();
    for (let i = 0; i < choices.length; i++) {
      const problems = problemsOf(
        poll,
        accountId,
        now,
        choices[i] as number,
        choices.slice(0, i),
        previous,
      );
      if (problems.length > 0) throw new AppError(422, `Validation failed: ${problems.join(", ")}`);
    }
    // A multiple-choice voter may add choices later, as in Mastodon; they stay one voter.
    const vote: PollVote = {
      id: previous?.id ?? ctx.ids.next(),
      accountId,
      targetId: poll.id,
      choices: [...(previous?.choices ?? []), ...choices],
      createdAt: previous?.createdAt ?? now.toISOString(),
    };
    // The vote record is the vote: once stored, it counts (every read recounts from the votes).
    // Its event is recorded first (ADR 0013): a crash after it still sends a remote poll's
    // votes; the listeners run after the lock, with the new counts.
    pending = await ctx.events.intend({ type: "poll.voted", poll, voterId: accountId, choices });
    try {
      await ctx.storage.pollVotes.put(vote);
    } catch (error) {
      await pending.abandon().catch(() => {});
      throw error;
    }
    // Counted from the votes, not incremented: this also heals counts a crash left behind. The
    // poll file only keeps those counts, so failing to store them fails nothing the voter sees.
    const updated = await tallyVotes(ctx, poll);
    await followUp(`store the counts of poll ${poll.id}`, () => ctx.storage.polls.put(updated));
    return updated;
  });
  await pending?.published({ type: "poll.voted", poll: result, voterId: accountId, choices });
  return result;
}
