// Remembered Idempotency-Keys: `idempotency/<key_hash>.json`. Few live at a time (they are
// pruned after an hour), so pruning simply scans them.

import type { IdempotencyRecord } from "../../domain/relations.ts";
import type { IdempotencyStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openIdempotencyStore(
  root: string,
  writer: DurableWriter,
): Promise<IdempotencyStore> {
  const records = await RecordCollection.load<IdempotencyRecord>(
    root,
    {
      folder: "idempotency",
      depth: 0,
      keyOf: (r) => r.keyHash,
      fileOf: (r) => `${r.keyHash}.json`,
    },
    writer,
  );

  return {
    async get(keyHash) {
      return records.get(keyHash);
    },
    async put(record) {
      await records.put(record);
    },
    async prune(before) {
      const cutoff = Date.parse(before);
      const expired: string[] = [];
      for (const record of records.values()) {
        if (Date.parse(record.createdAt) < cutoff) expired.push(record.keyHash);
      }
      const removed = await Promise.all(expired.map((keyHash) => records.remove(keyHash)));
      return removed.filter(Boolean).length;
    },
  };
}
