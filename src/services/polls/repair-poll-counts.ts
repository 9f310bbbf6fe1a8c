// Start-up repair of local polls' stored counts. A vote is two writes, the vote edge and then the
// poll record with its recounted totals (vote.ts); a kill between them leaves the file one vote
// behind. Readers recount (views/poll-view.ts), but the file, backups and exports would stay
// wrong until the next vote, so every start rewrites the local polls whose counts disagree with
// their votes. It runs before the server serves, so no vote races it; the poll lock is taken
// anyway for one-off commands that share the code path.

import { getLogger } from "@logtape/logtape";
import type { Poll } from "../../domain/poll.ts";
import { tallyVotes } from "../../views/poll-tally.ts";
import type { ServiceContext } from "../context.ts";
import { withPollLock } from "./poll-lock.ts";

const logger = getLogger(["wren", "polls"]);

function sameCounts(a: Poll, b: Poll): boolean {
  return (
    a.votesCount === b.votesCount &&
    a.votersCount === b.votersCount &&
    a.options.every((option, i) => option.votesCount === b.options[i]?.votesCount)
  );
}

/** Rewrites the local polls whose stored counts are not those of their votes; returns how many. */
export async function repairPollCounts(ctx: ServiceContext): Promise<number> {
  let repaired = 0;
  for (const id of await ctx.storage.polls.listIds()) {
    // A poll that cannot be repaired now (a full disk…) is left for the next start: the API
    // recounts anyway, so it is no reason to refuse to serve.
    const fixed = await withPollLock(ctx, id, async () => {
      const poll = await ctx.storage.polls.get(id);
      if (!poll) return false;
      // Remote polls keep the counts their server publishes: their votes are not ours to count.
      const author = await ctx.storage.accounts.get(poll.accountId);
      if (author?.domain !== null) return false;
      const counted = await tallyVotes(ctx, poll);
      if (sameCounts(poll, counted)) return false;
      await ctx.storage.polls.put(counted);
      return true;
    }).catch((error) => {
      logger.error("Could not repair the counts of poll {id}: {error}", { id, error });
      return false;
    });
    if (fixed) repaired++;
  }
  if (repaired > 0) {
    logger.warn("Repaired the stored counts of {repaired} poll(s) left behind by an unclean stop", {
      repaired,
    });
  }
  return repaired;
}
