// The key–value store: `kv/<sha256 of the key>.json`, one file per entry holding the key itself,
// the value and its expiry. Keys are hashed because their segments are URLs and other text that
// cannot be file names. Writes of one key are serialized so compare-and-set is atomic.
//
// Entries are also filed by their key's first two segments (["wren", "ipBlock"], ["wren",
// "domainBlock"]…), so a list of such a prefix reads its own entries, not every entry: the
// server's IP and domain blocks are listed again after every write (their memos follow
// Storage.version()), and the store also holds a preview card per link ever fetched.
//
// The families in JOURNALED_FAMILIES are lines of the job journal instead (ADR 0052): an entry
// written per inbox activity as a file cost a temporary file, its fsync, a rename and a share of
// `kv/`'s fsync; as a journal line it shares one fdatasync with the jobs (the accepted inbox
// activities) and entries asked for in the same turn. Files of those families that an older Wren
// wrote still load; a write of such a key replaces its file by a line.

import { createHash } from "node:crypto";
import { jsonEqual } from "../../domain/json-equal.ts";
import { createKvWriteCounts } from "../kv-write-counts.ts";
import type { KvEntry, KvStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { entryKey, type JobJournal } from "./job-journal.ts";
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

/**
 * Families (first two key segments) kept in the job journal: the inbox's once-records
 * (federation/inbox/once.ts), written for every activity processed and kept a day.
 */
const JOURNALED_FAMILIES: ReadonlySet<string> = new Set([groupOf(["wren", "inboxDone"])]);

/** The job journal and the entries it read back at open (JsonFileJobStore.entryJournal). */
export interface EntryJournal {
  journal: JobJournal;
  entries: Map<string, KvEntry>;
}

export async function openKvStore(
  root: string,
  writer: DurableWriter,
  entryJournal?: EntryJournal,
): Promise<KvStore> {
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
  const lines = entryJournal?.entries ?? new Map<string, KvEntry>();
  const inJournal = (key: readonly string[]) =>
    entryJournal !== undefined && JOURNALED_FAMILIES.has(groupOf(key));
  /** The stored entry of `key` (a journal line first, then a file), not copied. */
  const peek = (key: readonly string[]): KvEntry | undefined => {
    if (!inJournal(key)) return records.peek(hashOf(key));
    const line = lines.get(entryKey(key));
    // Most keys of a journaled family were never a file: no hash to compute for them.
    return line ?? (groups.has(groupOf(key)) ? records.peek(hashOf(key)) : undefined);
  };
  /** Stores `entry` where its family lives. Under its key's queue. */
  const put = async (entry: KvEntry): Promise<void> => {
    const stored = { ...entry, key: [...entry.key] };
    if (!entryJournal || !inJournal(entry.key)) return records.put(stored);
    await entryJournal.journal.setEntry(stored);
    lines.set(entryKey(stored.key), structuredClone(stored));
    // An older Wren's file of the key would come back if the line were removed later.
    if (groups.has(groupOf(entry.key))) await records.remove(hashOf(entry.key));
  };
  /** Removes the entry of `key` wherever it is; false when there was none. Under its queue. */
  const unput = async (key: readonly string[]): Promise<boolean> => {
    let removed = false;
    if (entryJournal && inJournal(key) && lines.has(entryKey(key))) {
      await entryJournal.journal.removeEntry(key);
      lines.delete(entryKey(key));
      removed = true;
    }
    if (inJournal(key) && !groups.has(groupOf(key))) return removed;
    return (await records.remove(hashOf(key))) || removed;
  };
  // Moved once a write is applied (KvStore.version), by the family of the keys written: a list
  // read before it is filed under the older number, never under the newer one.
  const counts = createKvWriteCounts();
  const written = <T>(keys: readonly (readonly string[])[], write: Promise<T>): Promise<T> =>
    write.finally(() => counts.wrote(keys));

  return {
    version: (prefix) => counts.count(prefix),
    async get(key) {
      // Values go to Fedify, which owns them afterwards: a mutable copy, not the frozen record.
      const entry = peek(key);
      return entry === undefined ? undefined : copy(entry);
    },
    async getMany(keys) {
      return keys.map((key) => {
        const entry = peek(key);
        return entry === undefined ? undefined : copy(entry);
      });
    },
    async set(entry) {
      const hash = hashOf(entry.key);
      await written(
        [entry.key],
        queue.run(hash, () => put(entry)),
      );
    },
    async delete(key) {
      const hash = hashOf(key);
      return written(
        [key],
        queue.run(hash, () => unput(key)),
      );
    },
    async compareAndSet(expected, next, now) {
      const hash = hashOf(next.key);
      return written(
        [next.key],
        queue.run(hash, async () => {
          const stored = peek(next.key);
          const current = stored === undefined || isExpired(stored, now) ? undefined : stored.value;
          if (!jsonEqual(current, expected)) return false;
          if (next.value === undefined) await unput(next.key);
          else await put(next);
          return true;
        }),
      );
    },
    async list(prefix) {
      // By hash: a key with both a line and an older Wren's file is listed once, as peek reads it.
      const found = new Map<string, KvEntry>();
      const candidates =
        prefix.length >= 2
          ? [...(groups.get(groupOf(prefix)) ?? [])].flatMap((hash) => records.peek(hash) ?? [])
          : records.values();
      const journaled = prefix.length < 2 || inJournal(prefix) ? lines.values() : [];
      for (const entry of [...candidates, ...journaled]) {
        if (startsWith(entry.key, prefix)) found.set(hashOf(entry.key), entry);
      }
      return [...found.values()]
        .map((entry) => copy(peek(entry.key) ?? entry))
        .sort((a, b) => compareKeys(a.key, b.key));
    },
    async pruneExpired(now) {
      const expired = new Map<string, readonly string[]>();
      for (const entry of [...records.values(), ...lines.values()]) {
        if (isExpired(entry, now)) expired.set(hashOf(entry.key), entry.key);
      }
      const keys = [...expired.values()];
      const removed = await written(
        keys,
        Promise.all(
          [...expired].map(([hash, key]) =>
            queue.run(hash, async () => {
              // Re-checked under the key's queue: a set since the scan may have renewed it.
              const current = peek(key);
              return current !== undefined && isExpired(current, now) && unput(key);
            }),
          ),
        ),
      );
      return removed.filter(Boolean).length;
    },
  };
}
