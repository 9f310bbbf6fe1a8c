// Scheduled statuses: `scheduled-statuses/<id>.json`. An account has at most a few hundred
// waiting, so each account's ids live in memory, rebuilt from the files at start-up.

import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { ScheduledStatusStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedIds } from "./sorted-ids.ts";

export async function openScheduledStatusStore(
  root: string,
  writer: DurableWriter,
): Promise<ScheduledStatusStore> {
  const byAccount = new Map<string, SortedIds>();
  const records = await RecordCollection.load<ScheduledStatus>(
    root,
    {
      folder: "scheduled-statuses",
      depth: 0,
      keyOf: (s) => s.id,
      fileOf: (s) => `${s.id}.json`,
      onChange(previous, next) {
        if (previous) byAccount.get(previous.accountId)?.delete(previous.id);
        if (next) {
          let ids = byAccount.get(next.accountId);
          if (!ids) {
            ids = new SortedIds();
            byAccount.set(next.accountId, ids);
          }
          ids.add(next.id);
        }
      },
    },
    writer,
  );

  const ofAccount = (accountId: string) =>
    (byAccount.get(accountId)?.ascending() ?? []).flatMap((id) => records.get(id) ?? []);

  return {
    async get(id) {
      return records.get(id);
    },
    async put(scheduled) {
      await records.put(scheduled);
    },
    delete(id) {
      return records.remove(id);
    },
    async listByAccount(accountId, page) {
      const ids = byAccount.get(accountId);
      return (ids?.page(page) ?? []).flatMap((id) => records.get(id) ?? []);
    },
    async countByAccount(accountId, window) {
      if (!window) return byAccount.get(accountId)?.size ?? 0;
      // Compared as instants: the stored times need not be written alike.
      const from = Date.parse(window.from);
      const to = Date.parse(window.to);
      return ofAccount(accountId).filter((s) => {
        const at = Date.parse(s.scheduledAt);
        return at >= from && at < to;
      }).length;
    },
  };
}
