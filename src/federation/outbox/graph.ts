// Outgoing activities about relationships between a local and a remote account: Follow and its
// Undo, the local side's Accept or Reject of a remote follow, Block and its Undo. Each goes to
// the other account alone. Which side acted is read from which account is local, so events
// that ingestion publishes for remote acts are never echoed back.

import { type Account, isLocal } from "../../domain/account.ts";
import type { Block, Follow } from "../../domain/relations.ts";
import {
  acceptFollowActivity,
  blockActivity,
  followActivity,
  rejectFollowActivity,
  undoActivity,
} from "../../serialization/activitypub/to-activities.ts";
import type { Outbox } from "./deliver.ts";

/** The two accounts of an edge, or undefined if either is gone. */
async function endsOf(
  outbox: Outbox,
  edge: { accountId: string; targetId: string },
): Promise<{ actor: Account; target: Account } | undefined> {
  const accounts = await outbox.ctx.storage.accounts.getMany([edge.accountId, edge.targetId]);
  const actor = accounts.get(edge.accountId);
  const target = accounts.get(edge.targetId);
  return actor && target ? { actor, target } : undefined;
}

/** A local account asked to follow a remote one: send the Follow. */
export async function sendFollow(outbox: Outbox, request: Follow): Promise<void> {
  const ends = await endsOf(outbox, request);
  if (!ends || !isLocal(ends.actor) || isLocal(ends.target)) return;
  const follow = followActivity(
    request,
    ends.actor.uri,
    ends.target.uri,
    outbox.ctx.settings.publicUrl,
  );
  await outbox.send(ends.actor, [ends.target], follow);
}

/** A local account withdrew its follow (or pending request) of a remote one: Undo(Follow). */
export async function sendUnfollow(outbox: Outbox, follow: Follow): Promise<void> {
  const ends = await endsOf(outbox, follow);
  if (!ends || !isLocal(ends.actor) || isLocal(ends.target)) return;
  const inner = followActivity(
    follow,
    ends.actor.uri,
    ends.target.uri,
    outbox.ctx.settings.publicUrl,
  );
  await outbox.send(ends.actor, [ends.target], undoActivity(inner, ends.actor.uri));
}

/** A remote account now follows a local one (automatically or once authorized): Accept. */
export async function sendAccept(outbox: Outbox, follow: Follow): Promise<void> {
  const ends = await endsOf(outbox, follow);
  if (!ends || isLocal(ends.actor) || !isLocal(ends.target)) return;
  await outbox.send(
    ends.target,
    [ends.actor],
    acceptFollowActivity(follow, ends.actor.uri, ends.target.uri),
  );
}

/**
 * A local account refused a remote account's request, or removed it from its followers:
 * Reject, which Mastodon also reads as "you no longer follow".
 */
export async function sendReject(outbox: Outbox, follow: Follow): Promise<void> {
  const ends = await endsOf(outbox, follow);
  if (!ends || isLocal(ends.actor) || !isLocal(ends.target)) return;
  await outbox.send(
    ends.target,
    [ends.actor],
    rejectFollowActivity(follow, ends.actor.uri, ends.target.uri),
  );
}

export async function sendBlock(outbox: Outbox, block: Block, undo: boolean): Promise<void> {
  const ends = await endsOf(outbox, block);
  if (!ends || !isLocal(ends.actor) || isLocal(ends.target)) return;
  const activity = blockActivity(block, ends.actor.uri, ends.target.uri);
  await outbox.send(
    ends.actor,
    [ends.target],
    undo ? undoActivity(activity, ends.actor.uri) : activity,
  );
}
