// Loads a poll's view for one viewer and serialises it: how the poll routes answer.

import { notFound } from "../../domain/errors.ts";
import type { Poll } from "../../domain/poll.ts";
import { type PollJson, serializePoll } from "../../serialization/mastodon/poll.ts";
import type { ServiceContext } from "../../services/context.ts";
import { loadPollViews } from "../../views/poll-view.ts";
import { urlContext } from "./account-json.ts";

export async function renderPoll(
  ctx: ServiceContext,
  poll: Poll,
  viewerId: string | null,
): Promise<PollJson> {
  const views = await loadPollViews(ctx, [poll.id], viewerId);
  const view = views.get(poll.id);
  // The poll was just read or written; should it vanish in between, it is simply not found.
  if (!view) throw notFound();
  return serializePoll(view, urlContext(ctx));
}
