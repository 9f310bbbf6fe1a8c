// Statuses: `statuses/<account_id>/<status_id>.json`, one file each, the `deleted` flag kept in
// the file. In memory: every status by id (deleted ones too, so they can answer 404/410), and
// per account the sorted ids of the non-deleted ones, which serve lists and counts.

import type { Status } from "../../domain/status.ts";
import type { StatusStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedIds } from "./sorted-ids.ts";

export async function openStatusStore(root: string, writer: DurableWriter): Promise<StatusStore> {
  const listed = new Map<string, SortedIds>();
  let localCount = 0;
  const isListed = (s: Status | undefined): s is Status => s !== undefined && !s.deleted;

  const records = await RecordCollection.load<Status>(
    root,
    {
      folder: "statuses",
      depth: 1,
      keyOf: (s) => s.id,
      fileOf: (s) => `${s.accountId}/${s.id}.json`,
      onChange(previous, next) {
        // A status never changes account (the collection refuses to move its file), so only
        // the listed/unlisted transition and the local flag matter.
        const was = isListed(previous);
        const is = isListed(next);
        if (was && !is) listed.get(previous.accountId)?.delete(previous.id);
        if (!was && is) {
          let ids = listed.get(next.accountId);
          if (!ids) {
            ids = new SortedIds();
            listed.set(next.accountId, ids);
          }
          ids.add(next.id);
        }
        if (was && previous.local) localCount--;
        if (is && next.local) localCount++;
      },
    },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async getMany(ids) {
      const found = new Map<string, Status>();
      for (const id of ids) {
        const status = records.get(id);
        if (status) found.set(id, status);
      }
      return found;
    },
    async put(status) {
      await records.put(status);
    },
    async listByAccount(accountId, page) {
      const ids = listed.get(accountId)?.page(page) ?? [];
      return ids.flatMap((id) => records.get(id) ?? []);
    },
    async countByAccount(accountId) {
      return listed.get(accountId)?.size ?? 0;
    },
    async countLocal() {
      return localCount;
    },
  };
}
