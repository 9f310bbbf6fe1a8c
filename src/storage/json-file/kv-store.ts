// The key–value store: `kv/<sha256 of the key>.json`, one file per entry holding the key itself,
// the value and its expiry. Keys are hashed because their segments are URLs and other text that
// cannot be file names. Writes of one key are serialized so compare-and-set is atomic.
//
// Entries are also filed by their key's first two segments (["wren", "ipBlock"], ["wren",
// "domainBlock"]…), so a list of such a prefix reads its own entries, not every entry: the
// server's IP and domain blocks are listed again after every write (their memos follow
// Storage.version()), and the store also holds a preview card per link ever fetched.

import { createHash } from "node:crypto";
import { jsonEqual } from "../../domain/json-equal.ts";
import { createKvWriteCounts } from "../kv-write-counts.ts";
import type { KvEntry, KvStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { KeyedQueue } from "./keyed-queue.ts";
import { RecordCollection } from "./record-collection.ts";

function hashOf(key: readonly string[]): string {
  if (key.length === 0) throw new Error("A key-value store key needs at least one segment");
  return createHash("sha256").update(JSON.stringify(key)).digest("hex");
}

function startsWith(key: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= key.length && prefix.every((segment, i) => key[i] === segment);
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** The group an entry is filed in: its key's first two segments (or its one). */
function groupOf(key: readonly string[]): string {
  return JSON.stringify(key.slice(0, 2));
}

function isExpired(entry: KvEntry, now: string): boolean {
  return entry.expiresAt !== null && Date.parse(entry.expiresAt) <= Date.parse(now);
}

export async function openKvStore(root: string, writer: DurableWriter): Promise<KvStore> {
  const groups = new Map<string, Set<string>>();
  const file = (entry: KvEntry) => {
    const group = groupOf(entry.key);
    let hashes = groups.get(group);
    if (!hashes) {
      hashes = new Set();
      groups.set(group, hashes);
    }
    hashes.add(hashOf(entry.key));
  };
  const unfile = (entry: KvEntry) => {
    const group = groupOf(entry.key);
    const hashes = groups.get(group);
    hashes?.delete(hashOf(entry.key));
    if (hashes?.size === 0) groups.delete(group);
  };
  let loading = true;
  const records = await RecordCollection.load<KvEntry>(
    root,
    {
      folder: "kv",
      depth: 0,
      keyOf: (e) => hashOf(e.key),
      fileOf: (e) => `${hashOf(e.key)}.json`,
      onChange(previous, next) {
        if (loading) return;
        if (previous) unfile(previous);
        if (next) file(next);
      },
    },
    writer,
  );
  loading = false;
  for (const entry of records.values()) file(entry);
  const queue = new KeyedQueue();
  const copy = (entry: KvEntry): KvEntry => structuredClone(entry);
  // Moved once a write is applied (KvStore.version), by the family of the keys written: a list
  // read before it is filed under the older number, never under the newer one.
  const counts = createKvWriteCounts();
  const written = <T>(keys: readonly (readonly string[])[], write: Promise<T>): Promise<T> =>
    write.finally(() => counts.wrote(keys));

  return {
    version: (prefix) => counts.count(prefix),
    async get(key) {
      // Values go to Fedify, which owns them afterwards: a mutable copy, not the frozen record.
      const entry = records.get(hashOf(key));
      return entry === undefined ? undefined : copy(entry);
    },
    async getMany(keys) {
      return keys.map((key) => {
        const entry = records.get(hashOf(key));
        return entry === undefined ? undefined : copy(entry);
      });
    },
    async set(entry) {
      const hash = hashOf(entry.key);
      await written(
        [entry.key],
        queue.run(hash, () => records.put({ ...entry, key: [...entry.key] })),
      );
    },
    async delete(key) {
      const hash = hashOf(key);
      return written(
        [key],
        queue.run(hash, () => records.remove(hash)),
      );
    },
    async compareAndSet(expected, next, now) {
      const hash = hashOf(next.key);
      return written(
        [next.key],
        queue.run(hash, async () => {
          const stored = records.peek(hash);
          const current = stored === undefined || isExpired(stored, now) ? undefined : stored.value;
          if (!jsonEqual(current, expected)) return false;
          if (next.value === undefined) await records.remove(hash);
          else await records.put({ ...next, key: [...next.key] });
          return true;
        }),
      );
    },
    async list(prefix) {
      const found: KvEntry[] = [];
      const candidates =
        prefix.length >= 2
          ? [...(groups.get(groupOf(prefix)) ?? [])].flatMap((hash) => records.peek(hash) ?? [])
          : records.values();
      for (const entry of candidates) {
        if (startsWith(entry.key, prefix)) found.push(copy(entry));
      }
      return found.sort((a, b) => compareKeys(a.key, b.key));
    },
    async pruneExpired(now) {
      const expired: string[] = [];
      const keys: (readonly string[])[] = [];
      for (const entry of records.values()) {
        if (isExpired(entry, now)) {
          expired.push(hashOf(entry.key));
          keys.push(entry.key);
        }
      }
      const removed = await written(
        keys,
        Promise.all(
          expired.map((hash) =>
            queue.run(hash, async () => {
              // Re-checked under the key's queue: a set since the scan may have renewed it.
              const current = records.peek(hash);
              return current !== undefined && isExpired(current, now) && records.remove(hash);
            }),
          ),
        ),
      );
      return removed.filter(Boolean).length;
    },
  };
}
