// A collection's items (Mastodon: POST /api/v1/collections/:id/items, DELETE …/items/:item_id,
// POST …/items/:item_id/revoke). The owner adds and removes accounts; a featured account takes
// itself out by revoking its item, which stays in the collection as `revoked` (hidden, and not
// counted against the limit), as in Mastodon.

import {
  COLLECTION_MAX_ITEMS,
  type Collection,
  type CollectionItem,
  isLiveItem,
} from "../../domain/collection.ts";
import { forbidden, notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { requireAccount } from "../graph/target-account.ts";
import { TOO_MANY_ITEMS } from "./create-collection.ts";
import { requireFeatureable } from "./featureable.ts";
import { changeCollection, findCollection, NOT_ALLOWED, ownedBy } from "./own-collection.ts";

export async function addCollectionItem(
  ctx: ServiceContext,
  viewerId: string,
  collectionId: string,
  accountId: string,
): Promise<CollectionItem> {
  // Mastodon checks the owner (403) before looking the account up (404).
  if (!ownedBy(viewerId)(await findCollection(ctx, collectionId))) throw forbidden(NOT_ALLOWED);
  const target = await requireAccount(ctx, accountId);
  await requireFeatureable(ctx, viewerId, target);
  let added: CollectionItem | undefined;
  await changeCollection(ctx, collectionId, ownedBy(viewerId), (collection) => {
    if (collection.items.some((i) => i.accountId === target.id)) {
      throw unprocessable("Validation failed: Account has already been taken");
    }
    if (collection.items.filter(isLiveItem).length >= COLLECTION_MAX_ITEMS) {
      throw unprocessable(TOO_MANY_ITEMS);
    }
    const now = ctx.clock.now().toISOString();
    const item: CollectionItem = {
      id: ctx.ids.next(),
      accountId: target.id,
      state: "accepted",
      createdAt: now,
    };
    added = item;
    const changed = { ...collection, items: [...collection.items, item], updatedAt: now };
    return {
      collection: changed,
      events: [{ type: "collection.item_added", collection: changed, item }],
    };
  });
  return added as CollectionItem;
}

function itemOf(collection: Collection, itemId: string): CollectionItem {
  const item = collection.items.find((i) => i.id === itemId);
  if (!item) throw notFound();
  return item;
}

export async function removeCollectionItem(
  ctx: ServiceContext,
  viewerId: string,
  collectionId: string,
  itemId: string,
): Promise<void> {
  await changeCollection(ctx, collectionId, ownedBy(viewerId), (collection) => {
    itemOf(collection, itemId);
    return {
      collection: { ...collection, items: collection.items.filter((i) => i.id !== itemId) },
    };
  });
}

export async function revokeCollectionItem(
  ctx: ServiceContext,
  viewerId: string,
  collectionId: string,
  itemId: string,
): Promise<void> {
  // An unknown item is 404 whoever asks; only the featured account itself may revoke it.
  itemOf(await findCollection(ctx, collectionId), itemId);
  await changeCollection(
    ctx,
    collectionId,
    (collection) => itemOf(collection, itemId).accountId === viewerId,
    (collection) => ({
      collection: {
        ...collection,
        items: collection.items.map((i) =>
          i.id === itemId ? { ...i, state: "revoked" as const } : i,
        ),
      },
    }),
  );
}
