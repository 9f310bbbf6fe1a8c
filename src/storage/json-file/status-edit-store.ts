// Earlier versions of edited statuses: `status-edits/<status_id>/<edit_id>.json`, indexed by
// status. Versions are listed in id order, which is the order they were saved in.

import { compareIds } from "../../domain/ids.ts";
import type { StatusEdit } from "../../domain/status.ts";
import type { StatusEditStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { GroupIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openStatusEditStore(
  root: string,
  writer: DurableWriter,
): Promise<StatusEditStore> {
  const byStatus = new GroupIndex();
  const records = await RecordCollection.load<StatusEdit>(
    root,
    {
      folder: "status-edits",
      depth: 1,
      keyOf: (e) => e.id,
      fileOf: (e) => `${e.statusId}/${e.id}.json`,
      onChange(previous, next) {
        if (previous) byStatus.delete(previous.statusId, previous.id);
        if (next) byStatus.add(next.statusId, next.id);
      },
    },
    writer,
  );

  return {
    async listByStatus(statusId) {
      return [...byStatus.get(statusId)].sort(compareIds).flatMap((id) => records.get(id) ?? []);
    },
    async put(edit) {
      await records.put(edit);
    },
    async deleteByStatus(statusId) {
      const removed = await Promise.all(
        [...byStatus.get(statusId)].map((id) => records.remove(id)),
      );
      return removed.filter(Boolean).length;
    },
  };
}
