// Outgoing Like and Undo(Like): a local account's favourite of a remote status goes to the
// status's author alone, as in Mastodon (followers do not hear of favourites).

import { isLocal } from "../../domain/account.ts";
import type { Favourite } from "../../domain/relations.ts";
import type { Status } from "../../domain/status.ts";
import { likeActivity, undoActivity } from "../../serialization/activitypub/to-activities.ts";
import type { Outbox } from "./deliver.ts";

export async function sendLike(
  outbox: Outbox,
  favourite: Favourite,
  status: Status | undefined,
  undo: boolean,
): Promise<void> {
  const { storage } = outbox.ctx;
  const target = status ?? (await storage.statuses.get(favourite.targetId));
  if (!target) return;
  const accounts = await storage.accounts.getMany([favourite.accountId, target.accountId]);
  const actor = accounts.get(favourite.accountId);
  const author = accounts.get(target.accountId);
  if (!actor || !author || !isLocal(actor) || isLocal(author)) return;
  const like = likeActivity(favourite, actor.uri, target.uri);
  await outbox.send(actor, [author], undo ? undoActivity(like, actor.uri) : like);
}
