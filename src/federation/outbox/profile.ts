// Outgoing Update(Person) when a local profile changes, to every remote follower (one copy per
// shared inbox), so their servers refresh name, bio, avatar, fields and keys at once; and Move
// when a local account moved, after the Update that shows it moved (as Mastodon's MoveService).

import type { Actor } from "@fedify/vocab";
import { type Account, isLocal } from "../../domain/account.ts";
import {
  deleteActorActivity,
  moveActivity,
  updateActorActivity,
} from "../../serialization/activitypub/to-activities.ts";
import { knownServers, remoteFollowersOf, remoteFollowingOf } from "./audience.ts";
import type { Outbox } from "./deliver.ts";

/**
 * The actor document exactly as the actor dispatcher serves it. Fedify builds actors only for
 * request contexts, so a request for the actor's own URL is made up (nothing is fetched).
 */
async function actorDocument(outbox: Outbox, account: Account): Promise<Actor | null> {
  const fctx = outbox.federation.createContext(
    new Request(account.uri, { headers: { accept: "application/activity+json" } }),
    outbox.ctx,
  );
  return fctx.getActor(account.username);
}

const versionOf = (outbox: Outbox, account: Account) =>
  String(Date.parse(account.updatedAt) || outbox.ctx.clock.now().getTime());

export async function sendProfileUpdate(outbox: Outbox, account: Account): Promise<void> {
  if (!isLocal(account)) return;
  const followers = await remoteFollowersOf(outbox.ctx, account.id);
  if (followers.length === 0) return;
  const actor = await actorDocument(outbox, account);
  if (!actor) return;
  await outbox.send(account, followers, updateActorActivity(actor, versionOf(outbox, account)));
}

export async function sendMove(outbox: Outbox, account: Account, target: Account): Promise<void> {
  if (!isLocal(account)) return;
  await sendProfileUpdate(outbox, account);
  const followers = await remoteFollowersOf(outbox.ctx, account.id);
  if (followers.length === 0) return;
  const followersUri = outbox.federation
    .createContext(new URL(outbox.ctx.settings.publicUrl), outbox.ctx)
    .getFollowersUri(account.username).href;
  const move = moveActivity(account.uri, followersUri, target.uri, versionOf(outbox, account));
  await outbox.send(account, followers, move);
}

/**
 * A suspended local account's data was deleted: its actor is deleted on every server we know
 * (Mastodon's DeleteAccountService sends its Delete to all known inboxes), so they drop its posts
 * and follows. Signed with its keys, which the keys dispatcher keeps serving for it.
 */
export async function sendActorDelete(outbox: Outbox, account: Account): Promise<void> {
  if (!isLocal(account)) return;
  const [followers, following, servers] = await Promise.all([
    remoteFollowersOf(outbox.ctx, account.id),
    remoteFollowingOf(outbox.ctx, account.id),
    knownServers(outbox.ctx),
  ]);
  const recipients = [...followers, ...following, ...servers];
  if (recipients.length === 0) return;
  await outbox.send(account, recipients, deleteActorActivity(account.uri));
}
