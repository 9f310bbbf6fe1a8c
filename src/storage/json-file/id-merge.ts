// One IdPage window over the union of several sorted id lists (a home timeline over the followed
// accounts, a public timeline over local and remote statuses), optionally skipping ids a
// predicate rejects. A k-way merge with a heap of cursors: the cost grows with the page size and
// the number of lists, never with the total number of ids.

import { compareIds } from "../../domain/ids.ts";
import type { IdPage } from "../ports.ts";
import { lowerBound, type SortedIds, upperBound } from "./sorted-ids.ts";

interface Cursor<T> {
  items: ArrayLike<T>;
  /** Next index to take. */
  at: number;
  /** Exclusive bound in the walking direction. */
  end: number;
}

/** A sorted run of one list: its entries in [lo, hi) of `items`. */
export interface SortedRun<T> {
  items: ArrayLike<T>;
  lo: number;
  hi: number;
}

/**
 * The ids of the window, newest first. Like SortedIds.page, min_id walks up from its bound (the
 * oldest matching ids) and everything else walks down from the upper bound. The lists must be
 * disjoint and must not change during the call (it is synchronous).
 */
export function mergePage(
  lists: readonly SortedIds[],
  page: IdPage,
  accept?: (id: string) => boolean,
): string[] {
  const runs = lists.map((list): SortedRun<string> => {
    const ids = list.view();
    const hi = page.maxId === undefined ? ids.length : lowerBound(ids, page.maxId);
    let lo = 0;
    if (page.sinceId !== undefined) lo = Math.max(lo, upperBound(ids, page.sinceId));
    if (page.minId !== undefined) lo = Math.max(lo, upperBound(ids, page.minId));
    return { items: ids, lo, hi };
  });
  return mergeRuns(runs, page.minId !== undefined, page.limit, compareIds, accept);
}

/**
 * Up to `limit` entries of the union of the runs, each already cut to the window: newest first,
 * taken from the oldest end when `up` (min_id), else from the newest. `compare` orders entries
 * of different runs (the runs are disjoint).
 */
export function mergeRuns<T>(
  runs: readonly SortedRun<T>[],
  up: boolean,
  limit: number,
  compare: (a: T, b: T) => number,
  accept?: (entry: T) => boolean,
): T[] {
  if (limit <= 0) return [];
  const step = up ? 1 : -1;
  // Max-heap when walking down (newest first), min-heap when walking up.
  const before = (a: Cursor<T>, b: Cursor<T>) =>
    compare(a.items[a.at] as T, b.items[b.at] as T) * step < 0;
  const heap: Cursor<T>[] = [];
  for (const { items, lo, hi } of runs) {
    if (lo >= hi) continue;
    push(heap, up ? { items, at: lo, end: hi } : { items, at: hi - 1, end: lo - 1 }, before);
  }
  const out: T[] = [];
  while (out.length < limit && heap.length > 0) {
    const top = heap[0] as Cursor<T>;
    const entry = top.items[top.at] as T;
    if (accept === undefined || accept(entry)) out.push(entry);
    top.at += step;
    if (top.at === top.end) {
      const last = heap.pop() as Cursor<T>;
      if (heap.length > 0) {
        heap[0] = last;
        siftDown(heap, 0, before);
      }
    } else {
      siftDown(heap, 0, before);
    }
  }
  return up ? out.reverse() : out;
}

type Before<T> = (a: Cursor<T>, b: Cursor<T>) => boolean;

function push<T>(heap: Cursor<T>[], cursor: Cursor<T>, before: Before<T>): void {
  heap.push(cursor);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    if (!before(heap[i] as Cursor<T>, heap[parent] as Cursor<T>)) break;
    swap(heap, i, parent);
    i = parent;
  }
}

function siftDown<T>(heap: Cursor<T>[], start: number, before: Before<T>): void {
  let i = start;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let best = i;
    if (left < heap.length && before(heap[left] as Cursor<T>, heap[best] as Cursor<T>)) best = left;
    if (right < heap.length && before(heap[right] as Cursor<T>, heap[best] as Cursor<T>))
      best = right;
    if (best === i) return;
    swap(heap, i, best);
    i = best;
  }
}

function swap<T>(heap: Cursor<T>[], i: number, j: number): void {
  const t = heap[i] as Cursor<T>;
  heap[i] = heap[j] as Cursor<T>;
  heap[j] = t;
}
