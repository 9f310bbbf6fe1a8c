// Pages of the lists read off statuses (an author's statuses, a home timeline's entries, the
// public and hashtag timelines) kept in this process between reads, as json-file answers them
// from memory. Each page is kept with what it was read from: its authors' rows, the public
// timeline's, or a tag's. A write forgets the pages of the authors it names (the
// "status_accounts" signal), every public page (the "public_timeline" signal, migration 0039) or
// the pages of the tags it names (the "status_tags" signal, migration 0041): this process's own
// writes as they resolve (count-signals.ts), other processes' when their notification arrives. A
// write naming no authors or tags (a bulk statement, TRUNCATE, missed notifications) forgets
// every page of its kind. A load that
// raced a write to what it reads is not kept. So a kept page outlives a write by no more than the
// notification's trip, the bound of the row memo (row-memo.ts, ADR 0033, ADR 0042).

import { deepFreeze } from "../../domain/deep-freeze.ts";
import type { Changes } from "./changes.ts";
import { PUBLIC_TIMELINE, STATUS_ACCOUNTS, STATUS_TAGS } from "./count-signals.ts";

/** Pages kept at most (the least recently used go first). */
const CAPACITY = 5_000;
/**
 * What the pages were read from, summed, at most: a home page of an account following thousands
 * names each of them, and the index of pages by source holds them all.
 */
const SOURCES_CAPACITY = 200_000;

/** What a page was read from: the rows of author `id`, or those of the public timelines. */
export const authorSource = (id: string) => `a${id}`;
export const PUBLIC_SOURCE = "public";
/** The rows of hashtag `tag` (lower-cased, as status_tags holds it). */
export const tagSource = (tag: string) => `t${tag}`;

interface Kept<T> {
  value: readonly T[];
  sources: readonly string[];
}

/** A load under way: what it reads from, and whether a write to it came meanwhile. */
interface Load {
  sources: ReadonlySet<string>;
  stale: boolean;
}

export interface StatusListMemo {
  /** The page kept under `key`, else loaded by `load` (reading `sources`) and kept. */
  get<T extends object>(
    key: string,
    sources: readonly string[],
    load: () => Promise<T[]>,
  ): Promise<T[]>;
  readonly size: number;
}

export function createStatusListMemo(
  changes: Changes,
  capacity = CAPACITY,
  sourcesCapacity = SOURCES_CAPACITY,
): StatusListMemo {
  // In use order (a hit moves its page last): the first is the least recently used.
  const pages = new Map<string, Kept<object>>();
  let sourcesKept = 0;
  const bySource = new Map<string, Set<string>>();
  const loads = new Set<Load>();

  function drop(key: string): void {
    const kept = pages.get(key);
    if (!kept) return;
    pages.delete(key);
    sourcesKept -= kept.sources.length;
    for (const source of kept.sources) {
      const keys = bySource.get(source);
      keys?.delete(key);
      if (keys?.size === 0) bySource.delete(source);
    }
  }

  function forget(sources: readonly string[]): void {
    for (const source of sources) {
      for (const key of bySource.get(source) ?? []) drop(key);
    }
    for (const load of loads) {
      if (sources.some((source) => load.sources.has(source))) load.stale = true;
    }
  }

  function forgetAll(): void {
    pages.clear();
    bySource.clear();
    sourcesKept = 0;
    for (const load of loads) load.stale = true;
  }

  /** Every page read from a tag's rows. */
  function forgetTags(): void {
    forget([...bySource.keys()].filter((source) => source.startsWith("t")));
    for (const load of loads) {
      if ([...load.sources].some((source) => source.startsWith("t"))) load.stale = true;
    }
  }

  changes.watchRows(STATUS_ACCOUNTS, (ids) => {
    if (ids === undefined) forgetAll();
    else forget(ids.map(authorSource));
  });
  changes.watchRows(PUBLIC_TIMELINE, () => forget([PUBLIC_SOURCE]));
  changes.watchRows(STATUS_TAGS, (tags) => {
    if (tags === undefined) forgetTags();
    else forget(tags.map(tagSource));
  });
  // The statuses' own signal names rows, not authors: only one naming none (a truncation, a
  // bulk statement, missed notifications) says something of the lists.
  changes.watchRows("statuses", (ids) => {
    if (ids === undefined) forgetAll();
  });

  function keep(key: string, kept: Kept<object>): void {
    drop(key);
    if (kept.sources.length > sourcesCapacity) return;
    pages.set(key, kept);
    sourcesKept += kept.sources.length;
    for (const source of kept.sources) {
      const keys = bySource.get(source) ?? new Set();
      bySource.set(source, keys);
      keys.add(key);
    }
    for (const oldest of pages.keys()) {
      if (pages.size <= capacity && sourcesKept <= sourcesCapacity) break;
      drop(oldest);
    }
  }

  return {
    get size() {
      return pages.size;
    },
    async get<T extends object>(
      key: string,
      sources: readonly string[],
      load: () => Promise<T[]>,
    ): Promise<T[]> {
      const kept = pages.get(key);
      if (kept) {
        pages.delete(key);
        pages.set(key, kept);
        // A copy: callers may sort or cut what they are given; the records are frozen.
        return [...kept.value] as T[];
      }
      const entry: Load = { sources: new Set(sources), stale: false };
      loads.add(entry);
      try {
        const value = await load();
        // Kept records are shared by every later reader: frozen, as json-file's are.
        if (!entry.stale) keep(key, { value: deepFreeze([...value]), sources });
        return value;
      } finally {
        loads.delete(entry);
      }
    },
  };
}
