// Changing a collection: only its owner may (Mastodon answers 403 "This action is not allowed"
// to anyone else, 404 when there is no such collection). The change runs under the owner's lock
// on a fresh read, so two changes at once (the owner's and a featured account's revoke) cannot
// lose one another.

import type { Collection } from "../../domain/collection.ts";
import { forbidden, notFound } from "../../domain/errors.ts";
import type { DomainEvent } from "../../domain/events.ts";
import type { ServiceContext } from "../context.ts";
import { publishAllAround } from "../events.ts";
import { collectionsLockKey } from "./create-collection.ts";

export const NOT_ALLOWED = "This action is not allowed";

export async function findCollection(ctx: ServiceContext, id: string): Promise<Collection> {
  const collection = await ctx.storage.collections.get(id);
  if (!collection) throw notFound();
  return collection;
}

/**
 * Runs `change` on the collection under its owner's lock, after `allowed` passed on it, and
 * stores what it gives with the events that announce the change (recorded with the write).
 */
export async function changeCollection(
  ctx: ServiceContext,
  id: string,
  allowed: (collection: Collection) => boolean,
  change: (collection: Collection) => { collection: Collection; events?: DomainEvent[] },
): Promise<Collection> {
  const first = await findCollection(ctx, id);
  return ctx.storage.coordination.withLock(collectionsLockKey(first.accountId), async () => {
    const collection = await findCollection(ctx, id);
    if (!allowed(collection)) throw forbidden(NOT_ALLOWED);
    const changed = change(collection);
    await publishAllAround(ctx.events, changed.events ?? [], () =>
      ctx.storage.collections.put(changed.collection),
    );
    return changed.collection;
  });
}

export const ownedBy = (viewerId: string) => (collection: Collection) =>
  collection.accountId === viewerId;
