// Outgoing activities about polls. A local account's vote in a remote poll goes to the poll's
// author alone (one Create(Note{name}) per choice, Mastodon's form). A local poll that gets a
// vote (from anyone) or closes is sent again as an Update of the Question with the new counts,
// so remote copies show them; Mastodon does the same (it debounces; here every vote updates).

import type { Poll } from "../../domain/poll.ts";
import {
  updateStatusActivity,
  voteActivities,
} from "../../serialization/activitypub/to-activities.ts";
import { noteOf } from "../status-documents.ts";
import { remoteVotersOf, statusAudience } from "./audience.ts";
import type { Outbox } from "./deliver.ts";
import { viewOf } from "./statuses.ts";

export async function sendVote(
  outbox: Outbox,
  poll: Poll,
  voterId: string,
  choices: readonly number[],
): Promise<void> {
  const { storage } = outbox.ctx;
  const [voter, author, status, vote] = await Promise.all([
    storage.accounts.get(voterId),
    storage.accounts.get(poll.accountId),
    storage.statuses.get(poll.statusId),
    storage.pollVotes.get(voterId, poll.id),
  ]);
  if (!voter || !author || !status || !vote) return;
  if (voter.domain !== null || author.domain === null) return;
  const activities = voteActivities({
    voterUri: voter.uri,
    voteId: vote.id,
    choices,
    optionTitles: poll.options.map((o) => o.title),
    questionUri: status.uri,
    authorUri: author.uri,
  });
  for (const activity of activities) await outbox.send(voter, [author], activity);
}

/** Sends a local poll's current counts (after a vote or when it closes). */
export async function sendPollUpdate(outbox: Outbox, poll: Poll): Promise<void> {
  const status = await outbox.ctx.storage.statuses.get(poll.statusId);
  if (!status?.local || status.deleted) return;
  const view = await viewOf(outbox, status);
  if (!view) return;
  const activity = updateStatusActivity(
    await noteOf(outbox.ctx, view),
    status,
    view.account.account.uri,
    // Each new count is its own Update (peers drop a repeated activity id).
    `poll-${outbox.ctx.ids.next()}`,
  );
  const [audience, voters] = await Promise.all([
    statusAudience(outbox.ctx, status),
    remoteVotersOf(outbox.ctx, poll.id),
  ]);
  await outbox.send(view.account.account, [...audience, ...voters], activity);
}
