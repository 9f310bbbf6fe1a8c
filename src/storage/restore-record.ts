// Puts one exported record into a storage through its port (`wren import`): the inverse of
// Storage.dump, the same for every backend.

import type { DumpedRecord } from "../domain/record-dump.ts";
import type { EdgeStore, KvEntry, Storage } from "./ports.ts";

/** Stores whose records are written with `put(record)`. */
type PutStore = { put(record: never): Promise<void> };

export async function restoreRecord(
  storage: Storage,
  { kind, record }: DumpedRecord,
): Promise<void> {
  if (kind === "kv") {
    await storage.kv.set(record as KvEntry);
    return;
  }
  const store = storage[kind] as PutStore | EdgeStore<never>;
  await (store.put as (record: object) => Promise<void>).call(store, record);
}
