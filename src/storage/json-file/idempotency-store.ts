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

  // Records being written by putIfAbsent: a record becomes visible only once durable, so a second
  // claim of the same key meanwhile must wait for the first instead of writing too.
  const claims = new Map<string, Promise<IdempotencyRecord>>();

  return {
    async get(keyHash) {
      return records.get(keyHash);
    },
    async put(record) {
      await records.put(record);
    },
    async putIfAbsent(record) {
      const existing = records.get(record.keyHash) ?? claims.get(record.keyHash);
      if (existing) return existing;
      const claim = records.put(record).then(() => records.get(record.keyHash) ?? record);
      claims.set(record.keyHash, claim);
      try {
        return await claim;
      } finally {
        claims.delete(record.keyHash);
      }
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
