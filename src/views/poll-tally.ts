// A local poll's counts, from its votes. The vote edges are the truth: the counts kept on the
// poll record are a cache written after the vote, so a crash between the two writes would
// otherwise leave the poll one vote short for good. Remote polls keep the counts their server
// publishes (their votes are not ours to count).

import type { Poll } from "../domain/poll.ts";
import type { ServiceContext } from "../services/context.ts";

const PAGE = 1000;

/** The poll with option, vote and voter counts recounted from its vote edges. */
export async function tallyVotes(ctx: ServiceContext, poll: Poll): Promise<Poll> {
  const perOption = poll.options.map(() => 0);
  let voters = 0;
  let votes = 0;
  let maxId: string | undefined;
  for (;;) {
    const page = await ctx.storage.pollVotes.listTo(poll.id, { limit: PAGE, maxId });
    for (const vote of page) {
      voters++;
      for (const choice of vote.choices) {
        if (choice >= 0 && choice < perOption.length) {
          perOption[choice] = (perOption[choice] ?? 0) + 1;
          votes++;
        }
      }
    }
    if (page.length < PAGE) break;
    maxId = page[page.length - 1]?.id;
  }
  return {
    ...poll,
    options: poll.options.map((option, i) => ({ ...option, votesCount: perOption[i] ?? 0 })),
    votesCount: votes,
    votersCount: voters,
  };
}
