// The key-value entries every page of statuses with links reads (the preview cards and the
// statuses' links to them), the trend reviews and the circuit states every delivery reads, kept
// in this process, as json-file answers
// them from memory: a row memo (row-memo.ts) under each key's name, forgotten as a write names it (migration 0039's
// "kv_rows" signal: this process's writes as they resolve, other processes' on the notification).
// The other keys are read as before: most are Fedify's caches and marks, written on every post.

import { createHash } from "node:crypto";
import type { KvEntry } from "../ports.ts";
import type { Changes } from "./changes.ts";
import { createRowMemo } from "./row-memo.ts";

/**
 * The key prefixes kept; their writes signal (migration 0039's triggers test the same; 0041 added
 * the trend reviews, read on every hashtag timeline and trends answer; 0051 Fedify's circuit
 * states, read twice per delivery, written only as a host fails or comes back).
 */
const KEPT_PREFIXES = [
  ["wren", "previewCard"],
  ["wren", "statusCard"],
  ["wren", "trendReview"],
  ["_fedify", "circuit"],
] as const;

/** The signal naming written entries. */
export const KV_ROWS = "kv_rows";

/** Whether entries under `key` are kept. */
export const keptKey = (key: readonly string[]) =>
  KEPT_PREFIXES.some((prefix) => prefix.every((segment, i) => key[i] === segment));

/**
 * The name a signal gives the entry: the first 16 hex digits of the md5 of its segments joined by
 * U+001F, as the trigger computes it. Two keys of one name only forget each other.
 */
export function kvRowName(key: readonly string[]): string {
  const joined = key.join("\u001f");
  let name = madeNames.get(joined);
  if (name === undefined) {
    name = createHash("md5").update(joined).digest("hex").slice(0, 16);
    if (madeNames.size >= NAMES_KEPT) madeNames.clear();
    madeNames.set(joined, name);
  }
  return name;
}

/**
 * The names last made: a delivery reads its host's circuit state twice, each read naming the
 * key (an md5), and a fan-out reads a thousand hosts' (PERFORMANCE.md, "PostgreSQL fan-out,
 * round three"). Emptied whole when full.
 */
const madeNames = new Map<string, string>();
const NAMES_KEPT = 10_000;

export interface KvMemo {
  /**
   * The entries of `keys` in order: the kept keys' from the memo, loading those not kept with the
   * others in one call of `load` (which answers in the order it is asked).
   */
  getMany(
    keys: readonly (readonly string[])[],
    load: (keys: readonly (readonly string[])[]) => Promise<(KvEntry | undefined)[]>,
  ): Promise<(KvEntry | undefined)[]>;
  /** This process's write to `keys`, as it resolves. */
  written(keys: readonly (readonly string[])[]): void;
}

export function createKvMemo(changes: Changes): KvMemo {
  const memo = createRowMemo<KvEntry>(changes, KV_ROWS);
  return {
    async getMany(keys, load) {
      const kept = keys.filter(keptKey);
      const others = keys.filter((key) => !keptKey(key));
      const names = kept.map(kvRowName);
      // A name the memo does not hold is loaded with the other keys.
      let fromOthers: Promise<(KvEntry | undefined)[]> | undefined;
      const keptEntries = await memo.getMany(names, async (missing) => {
        const missingKeys = missing.map((name) => kept[names.indexOf(name)] as readonly string[]);
        fromOthers = load([...others, ...missingKeys]);
        const loaded = await fromOthers;
        const found = new Map<string, KvEntry>();
        missing.forEach((name, i) => {
          const entry = loaded[others.length + i];
          if (entry !== undefined) found.set(name, entry);
        });
        return found;
      });
      const otherEntries = others.length === 0 ? [] : await (fromOthers ?? load(others));
      let other = 0;
      let keptOne = 0;
      return keys.map((key) =>
        keptKey(key) ? keptEntries.get(names[keptOne++] as string) : otherEntries[other++],
      );
    },
    written(keys) {
      const names = keys.filter(keptKey).map(kvRowName);
      if (names.length > 0) changes.rows(KV_ROWS, names);
    },
  };
}
