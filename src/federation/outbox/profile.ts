// Outgoing Update(Person) when a local profile changes, to every remote follower (one copy per
// shared inbox), so their servers refresh name, bio, avatar, fields and keys at once.

import type { Actor } from "@fedify/vocab";
import { type Account, isLocal } from "../../domain/account.ts";
import { updateActorActivity } from "../../serialization/activitypub/to-activities.ts";
import { remoteFollowersOf } from "./audience.ts";
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

export async function sendProfileUpdate(outbox: Outbox, account: Account): Promise<void> {
  if (!isLocal(account)) return;
  const followers = await remoteFollowersOf(outbox.ctx, account.id);
  if (followers.length === 0) return;
  const actor = await actorDocument(outbox, account);
  if (!actor) return;
  const version = String(Date.parse(account.updatedAt) || outbox.ctx.clock.now().getTime());
  await outbox.send(account, followers, updateActorActivity(actor, version));
}
