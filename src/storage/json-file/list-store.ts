// Lists: `lists/<list_id>.json`. A user has at most a few dozen, so the lists of each owner are
// kept in memory as sorted ids, rebuilt from the files at start-up. Members are an edge store.

import type { List } from "../../domain/list.ts";
import type { ListStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedGroups } from "./sorted-ids.ts";

export async function openListStore(root: string, writer: DurableWriter): Promise<ListStore> {
  const byOwner = new SortedGroups();
  const records = await RecordCollection.load<List>(
    root,
    {
      folder: "lists",
      depth: 0,
      keyOf: (l) => l.id,
      fileOf: (l) => `${l.id}.json`,
      onChange(previous, next) {
        if (previous) byOwner.delete(previous.accountId, previous.id);
        if (next) byOwner.add(next.accountId, next.id);
      },
    },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async listByAccount(accountId) {
      const ids = byOwner.get(accountId)?.ascending() ?? [];
      return ids.flatMap((id) => records.get(id) ?? []);
    },
    async put(list) {
      await records.put(list);
    },
    delete(id) {
      return records.remove(id);
    },
  };
}
