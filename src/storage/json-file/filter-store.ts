// Filters: `filters/<filter_id>.json`, each with its keywords and statuses. A user has a few, so
// the ids of each account's filters are indexed in memory (rebuilt from the files at start-up)
// and a timeline page finds the viewer's filters without touching the disk.

import type { CustomFilter } from "../../domain/filter.ts";
import { compareIds } from "../../domain/ids.ts";
import type { FilterStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openFilterStore(root: string, writer: DurableWriter): Promise<FilterStore> {
  const byAccount = new Map<string, Set<string>>();
  const records = await RecordCollection.load<CustomFilter>(
    root,
    {
      folder: "filters",
      depth: 0,
      keyOf: (f) => f.id,
      fileOf: (f) => `${f.id}.json`,
      onChange(previous, next) {
        if (previous) {
          const ids = byAccount.get(previous.accountId);
          ids?.delete(previous.id);
          if (ids?.size === 0) byAccount.delete(previous.accountId);
        }
        if (next) {
          const ids = byAccount.get(next.accountId) ?? new Set<string>();
          ids.add(next.id);
          byAccount.set(next.accountId, ids);
        }
      },
    },
    writer,
  );

  const listOf = (accountId: string): CustomFilter[] => {
    const ids = [...(byAccount.get(accountId) ?? [])].sort(compareIds);
    return ids.flatMap((id) => records.get(id) ?? []);
  };

  return {
    async get(id) {
      return records.get(id);
    },
    async listByAccount(accountId) {
      return listOf(accountId);
    },
    async listByAccounts(accountIds) {
      const out = new Map<string, CustomFilter[]>();
      for (const accountId of accountIds) {
        if (!byAccount.has(accountId) || out.has(accountId)) continue;
        const filters = listOf(accountId);
        if (filters.length > 0) out.set(accountId, filters);
      }
      return out;
    },
    async put(filter) {
      await records.put(filter);
    },
    async delete(id) {
      return records.remove(id);
    },
  };
}
