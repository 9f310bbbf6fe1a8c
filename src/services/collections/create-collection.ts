// Create a collection (Mastodon: POST /api/v1/collections), optionally with its first featured
// accounts. All or nothing: every account must exist (404) and allow being featured (403). The
// count against COLLECTIONS_PER_ACCOUNT and the write happen under the owner's lock, so two
// racing creations cannot both pass it.

import {
  COLLECTION_MAX_ITEMS,
  COLLECTIONS_PER_ACCOUNT,
  type Collection,
  type CollectionItem,
} from "../../domain/collection.ts";
import { notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { publishAllAround } from "../events.ts";
import { applyCollectionInput, type CollectionInput, DEFAULT_FIELDS } from "./collection-fields.ts";
import { requireFeatureable } from "./featureable.ts";

export function collectionsLockKey(ownerId: string): string {
  return `collections:${ownerId}`;
}

export const TOO_MANY_ITEMS = `Validation failed: Collection items is too long (maximum is ${COLLECTION_MAX_ITEMS} items)`;

export async function createCollection(
  ctx: ServiceContext,
  ownerId: string,
  input: CollectionInput,
  accountIds: readonly string[],
): Promise<Collection> {
  const fields = applyCollectionInput(DEFAULT_FIELDS, input);
  const ids = [...new Set(accountIds)];
  if (ids.length > COLLECTION_MAX_ITEMS) throw unprocessable(TOO_MANY_ITEMS);
  const found = await ctx.storage.accounts.getMany(ids);
  for (const id of ids) {
    const account = found.get(id);
    if (!account) throw notFound();
    await requireFeatureable(ctx, ownerId, account);
  }
  return ctx.storage.coordination.withLock(collectionsLockKey(ownerId), async () => {
    const existing = await ctx.storage.collections.listByAccount(ownerId);
    if (existing.length >= COLLECTIONS_PER_ACCOUNT) {
      throw unprocessable(
        `Validation failed: You cannot have more than ${COLLECTIONS_PER_ACCOUNT} collections`,
      );
    }
    const now = ctx.clock.now().toISOString();
    const items: CollectionItem[] = ids.map((accountId) => ({
      id: ctx.ids.next(),
      accountId,
      state: "accepted",
      createdAt: now,
    }));
    const collection: Collection = {
      id: ctx.ids.next(),
      accountId: ownerId,
      ...fields,
      items,
      createdAt: now,
      updatedAt: now,
    };
    const events = items.map((item) => ({
      type: "collection.item_added" as const,
      collection,
      item,
    }));
    await publishAllAround(ctx.events, events, () => ctx.storage.collections.put(collection));
    return collection;
  });
}
