// Update or delete a collection (Mastodon: PATCH and DELETE /api/v1/collections/:id), by its
// owner only. Items are changed through their own endpoints.

import type { Collection } from "../../domain/collection.ts";
import { forbidden } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { applyCollectionInput, type CollectionInput } from "./collection-fields.ts";
import { collectionsLockKey } from "./create-collection.ts";
import { changeCollection, findCollection, NOT_ALLOWED, ownedBy } from "./own-collection.ts";

export function updateCollection(
  ctx: ServiceContext,
  viewerId: string,
  id: string,
  input: CollectionInput,
): Promise<Collection> {
  return changeCollection(ctx, id, ownedBy(viewerId), (collection) => {
    const changed = {
      ...collection,
      ...applyCollectionInput(collection, input),
      updatedAt: ctx.clock.now().toISOString(),
    };
    // Mastodon tells the featured accounts only of a new name or description.
    const told = changed.name !== collection.name || changed.description !== collection.description;
    return {
      collection: changed,
      events: told ? [{ type: "collection.updated", collection: changed }] : [],
    };
  });
}

export async function deleteCollection(
  ctx: ServiceContext,
  viewerId: string,
  id: string,
): Promise<void> {
  const collection = await findCollection(ctx, id);
  if (collection.accountId !== viewerId) throw forbidden(NOT_ALLOWED);
  await ctx.storage.coordination.withLock(collectionsLockKey(viewerId), () =>
    ctx.storage.collections.delete(id),
  );
}
