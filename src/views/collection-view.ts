// Collections on the read side, tailored to the viewer as Mastodon's `items_for` does: the owner
// sees pending and accepted items, anyone else only accepted ones; items of accounts the viewer
// blocks are left out, and so are those of accounts that are gone (deleted by their server).

import type { Account } from "../domain/account.ts";
import { type Collection, type CollectionItem, isLiveItem } from "../domain/collection.ts";
import type { ServiceContext } from "../services/context.ts";

export interface CollectionView {
  collection: Collection;
  /** The owner (undefined only if their record is gone). */
  owner: Account | undefined;
  /** The items this viewer may see, in collection order. */
  items: CollectionItem[];
  /** The featured accounts of `items`, by id. */
  accounts: ReadonlyMap<string, Account>;
}

export async function loadCollectionViews(
  ctx: ServiceContext,
  collections: readonly Collection[],
  viewerId: string | null,
): Promise<CollectionView[]> {
  const shown = (c: Collection) =>
    c.items.filter((i) => (c.accountId === viewerId ? isLiveItem(i) : i.state === "accepted"));
  const ids = [...new Set(collections.flatMap((c) => shown(c).map((i) => i.accountId)))];
  const owners = [...new Set(collections.map((c) => c.accountId))];
  const [accounts, blocked] = await Promise.all([
    ctx.storage.accounts.getMany([...new Set([...ids, ...owners])]),
    viewerId === null ? new Map() : ctx.storage.blocks.findFrom(viewerId, ids),
  ]);
  return collections.map((collection) => ({
    collection,
    owner: accounts.get(collection.accountId),
    items: shown(collection).filter((i) => {
      const account = accounts.get(i.accountId);
      return account !== undefined && !account.suspended && !blocked.has(i.accountId);
    }),
    accounts,
  }));
}
