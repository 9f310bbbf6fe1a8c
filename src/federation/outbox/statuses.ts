// Outgoing activities about local statuses: Create on posting, Update on an edit, Delete on
// deletion, Announce on a boost and Undo(Announce) when the boost is withdrawn. The documents
// are the ones the object dispatchers and the outbox collection serve (status-documents.ts).
// The audience comes first: most statuses of a small server have no remote reader, and then
// nothing needs to be built at all.

import type { DomainEvent } from "../../domain/events.ts";
import type { Status } from "../../domain/status.ts";
import {
  deleteStatusActivity,
  undoActivity,
  updateStatusActivity,
} from "../../serialization/activitypub/to-activities.ts";
import { addressingOf } from "../../serialization/activitypub/to-note.ts";
import { loadStatusViews, type StatusView } from "../../views/status-view.ts";
import { noteOf, postActivitiesOf } from "../status-documents.ts";
import { remoteAccount, remoteFollowersOf, statusAudience } from "./audience.ts";
import type { Outbox } from "./deliver.ts";

/** The anonymous view of a status: peers get what the public would, never viewer flags. */
export async function viewOf(outbox: Outbox, status: Status): Promise<StatusView | undefined> {
  const [view] = await loadStatusViews(outbox.ctx, [status], null);
  return view;
}

/** `event`, the status's creation: its listeners share one read of the followers. */
export async function sendCreate(
  outbox: Outbox,
  status: Status,
  event?: DomainEvent,
): Promise<void> {
  if (!status.local || status.reblogOfId !== null) return;
  const audience = await statusAudience(outbox.ctx, status, event ? { event } : {});
  if (audience.length === 0) return;
  const view = await viewOf(outbox, status);
  if (!view) return;
  const [activity] = await postActivitiesOf(outbox.ctx, [view]);
  if (!activity) return;
  await outbox.send(view.account.account, audience, activity);
}

/** `fresh`: not an edit (a new quote policy or approval), so a version of its own. */
export async function sendUpdate(outbox: Outbox, status: Status, fresh = false): Promise<void> {
  if (!status.local || status.reblogOfId !== null || status.deleted) return;
  const audience = await statusAudience(outbox.ctx, status, { interactors: true });
  if (audience.length === 0) return;
  const view = await viewOf(outbox, status);
  if (!view) return;
  // Each edit is told apart by the time it was made.
  const version =
    status.editedAt && !fresh ? String(Date.parse(status.editedAt)) : outbox.ctx.ids.next();
  const activity = updateStatusActivity(
    await noteOf(outbox.ctx, view),
    status,
    view.account.account.uri,
    version,
  );
  await outbox.send(view.account.account, audience, activity);
}

export async function sendDelete(outbox: Outbox, status: Status): Promise<void> {
  if (!status.local) return;
  if (status.reblogOfId !== null) return sendUndoAnnounce(outbox, status);
  const audience = await statusAudience(outbox.ctx, status, { interactors: true });
  if (audience.length === 0) return;
  const view = await viewOf(outbox, status);
  if (!view) return;
  const author = view.account.account;
  // Addressed as the status was, so a followers-only status's deletion stays among followers.
  const addressing = addressingOf(status.visibility, author, view.mentions);
  const activity = deleteStatusActivity(status, author.uri, addressing);
  await outbox.send(author, audience, activity);
}

/** The booster's followers and the boosted status's author (if remote) hear of a boost. */
async function announceAudience(outbox: Outbox, reblog: Status, original: Status) {
  const [followers, author] = await Promise.all([
    remoteFollowersOf(outbox.ctx, reblog.accountId),
    remoteAccount(outbox.ctx, original.accountId),
  ]);
  return author ? [...followers, author] : followers;
}

export async function sendAnnounce(
  outbox: Outbox,
  reblog: Status,
  original: Status,
): Promise<void> {
  if (!reblog.local) return;
  const view = await viewOf(outbox, reblog);
  if (!view?.reblog) return;
  const [activity] = await postActivitiesOf(outbox.ctx, [view]);
  if (!activity) return;
  const audience = await announceAudience(outbox, reblog, original);
  await outbox.send(view.account.account, audience, activity);
}

async function sendUndoAnnounce(outbox: Outbox, reblog: Status): Promise<void> {
  const view = await viewOf(outbox, reblog);
  // With the original gone too, its Delete already told everyone; there is nothing to undo.
  if (!view?.reblog) return;
  const [announce] = await postActivitiesOf(outbox.ctx, [view]);
  if (!announce) return;
  const activity = undoActivity(announce, view.account.account.uri);
  const audience = await announceAudience(outbox, reblog, view.reblog.status);
  await outbox.send(view.account.account, audience, activity);
}
