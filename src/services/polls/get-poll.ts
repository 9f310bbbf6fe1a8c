// Reading a poll (GET /api/v1/polls/:id): it is exactly as visible as its status, so a poll
// on a followers-only post is a 404 to strangers, the same answer as a poll that does not exist.

import { notFound } from "../../domain/errors.ts";
import type { Poll } from "../../domain/poll.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";

/** The poll with its status visible to `viewerId` (null: anonymous), or a 404. */
export async function loadVisiblePoll(
  ctx: ServiceContext,
  viewerId: string | null,
  pollId: string,
): Promise<Poll> {
  const poll = await ctx.storage.polls.get(pollId);
  if (!poll) throw notFound();
  await loadVisibleStatus(ctx, viewerId, poll.statusId);
  return poll;
}
