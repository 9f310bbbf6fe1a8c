// The read side of polls: a poll with what the viewer has voted, the custom emojis of its
// options, and whether it has ended at the moment of reading (a poll is over from its deadline
// on, even before the expiry job has run). Built for many polls at once, so a timeline full of
// polls costs a few batched lookups, not a few per poll.

import type { CustomEmoji } from "../domain/custom-emoji.ts";
import { type Poll, pollExpired } from "../domain/poll.ts";
import type { ServiceContext } from "../services/context.ts";
import { resolveEmojis } from "./custom-emojis.ts";
import { tallyVotes } from "./poll-tally.ts";

export interface PollView {
  poll: Poll;
  expired: boolean;
  /** What the viewer has done; null for anonymous viewers (the fields are then left out). */
  viewer: { voted: boolean; ownVotes: number[] } | null;
  /** Custom emojis used in the options. */
  emojis: CustomEmoji[];
}

export function buildPollView(
  poll: Poll,
  now: Date,
  viewerId: string | null,
  ownVotes: readonly number[] | undefined,
  emojis: CustomEmoji[] = [],
): PollView {
  return {
    poll,
    emojis,
    expired: pollExpired(poll, now),
    viewer:
      viewerId === null
        ? null
        : {
            // The author counts as having voted, as in Mastodon (clients then show results).
            voted: viewerId === poll.accountId || ownVotes !== undefined,
            ownVotes: [...(ownVotes ?? [])],
          },
  };
}

/** Views of the polls that exist among `pollIds`, keyed by poll id. */
export async function loadPollViews(
  ctx: ServiceContext,
  pollIds: readonly string[],
  viewerId: string | null,
): Promise<Map<string, PollView>> {
  const ids = [...new Set(pollIds)];
  const out = new Map<string, PollView>();
  if (ids.length === 0) return out;
  const [polls, votes] = await Promise.all([
    ctx.storage.polls.getMany(ids),
    viewerId === null ? null : ctx.storage.pollVotes.findFrom(viewerId, ids),
  ]);
  const stored = [...polls.values()];
  // Emojis belong to the poll author's server.
  const authors = await ctx.storage.accounts.getMany([...new Set(stored.map((p) => p.accountId))]);
  // Local polls' counts must agree with their votes (poll-tally.ts); remote ones are as
  // published. Counting voters is cheap, so the full recount runs only when they disagree
  // (a kill while a voter added choices to a multiple-choice poll is healed by the next vote).
  const found = await Promise.all(
    stored.map(async (p) => {
      if (authors.get(p.accountId)?.domain !== null) return p;
      const voters = await ctx.storage.pollVotes.countTo(p.id);
      return voters === p.votersCount ? p : tallyVotes(ctx, p);
    }),
  );
  const emojis = await resolveEmojis(
    ctx,
    found.map((p) => ({
      domain: authors.get(p.accountId)?.domain ?? null,
      texts: p.options.map((o) => o.title),
    })),
  );
  const now = ctx.clock.now();
  found.forEach((poll, i) => {
    const own = votes?.get(poll.id)?.choices;
    out.set(poll.id, buildPollView(poll, now, viewerId, own, emojis[i] ?? []));
  });
  return out;
}
