// Collections: `collections/<collection_id>.json`, each with its items inline. Kept in memory as
// sorted ids by owner and by accepted featured account (the "featured in" list), rebuilt from the
// files at start-up.

import type { Collection } from "../../domain/collection.ts";
import type { CollectionStore } from "../collection-port.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedGroups } from "./sorted-ids.ts";

function acceptedAccounts(collection: Collection): Set<string> {
  return new Set(collection.items.filter((i) => i.state === "accepted").map((i) => i.accountId));
}

export async function openCollectionStore(
  root: string,
  writer: DurableWriter,
): Promise<CollectionStore> {
  const byOwner = new SortedGroups();
  const byFeatured = new SortedGroups();
  const records = await RecordCollection.load<Collection>(
    root,
    {
      folder: "collections",
      depth: 0,
      keyOf: (c) => c.id,
      fileOf: (c) => `${c.id}.json`,
      onChange(previous, next) {
        if (previous) {
          byOwner.delete(previous.accountId, previous.id);
          for (const id of acceptedAccounts(previous)) byFeatured.delete(id, previous.id);
        }
        if (next) {
          byOwner.add(next.accountId, next.id);
          for (const id of acceptedAccounts(next)) byFeatured.add(id, next.id);
        }
      },
    },
    writer,
  );
  const newestFirst = (groups: SortedGroups, key: string) =>
    (groups.get(key)?.ascending() ?? []).reverse();

  return {
    async get(id) {
      return records.get(id);
    },
    async listByAccount(accountId) {
      return newestFirst(byOwner, accountId).flatMap((id) => records.get(id) ?? []);
    },
    async listFeaturing(accountId, offset, limit) {
      return newestFirst(byFeatured, accountId)
        .slice(offset, offset + limit)
        .flatMap((id) => records.get(id) ?? []);
    },
    async put(collection) {
      await records.put(collection);
    },
    delete(id) {
      return records.remove(id);
    },
  };
}
