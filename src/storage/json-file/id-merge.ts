// One IdPage window over the union of several sorted id lists (a home timeline over the followed
// accounts, a public timeline over local and remote statuses), optionally skipping ids a
// predicate rejects. A k-way merge with a heap of cursors: the cost grows with the page size and
// the number of lists, never with the total number of ids.

import { compareIds } from "../../domain/ids.ts";
import type { IdPage } from "../ports.ts";
import { lowerBound, type SortedIds, upperBound } from "./sorted-ids.ts";

interface Cursor {
  ids: readonly string[];
  /** Next index to take. */
  at: number;
  /** Exclusive bound in the walking direction. */
  end: number;
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
  if (page.limit <= 0) return [];
  const up = page.minId !== undefined;
  const step = up ? 1 : -1;
  // Max-heap when walking down (newest first), min-heap when walking up.
  const before = (a: Cursor, b: Cursor) =>
    compareIds(a.ids[a.at] as string, b.ids[b.at] as string) * step < 0;
  const heap: Cursor[] = [];
  for (const list of lists) {
    const ids = list.view();
    const hi = page.maxId === undefined ? ids.length : lowerBound(ids, page.maxId);
    let lo = 0;
    if (page.sinceId !== undefined) lo = Math.max(lo, upperBound(ids, page.sinceId));
    if (page.minId !== undefined) lo = Math.max(lo, upperBound(ids, page.minId));
    if (lo >= hi) continue;
    push(heap, up ? { ids, at: lo, end: hi } : { ids, at: hi - 1, end: lo - 1 }, before);
  }
  const out: string[] = [];
  while (out.length < page.limit && heap.length > 0) {
    const top = heap[0] as Cursor;
    const id = top.ids[top.at] as string;
    if (accept === undefined || accept(id)) out.push(id);
    top.at += step;
    if (top.at === top.end) {
      const last = heap.pop() as Cursor;
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

type Before = (a: Cursor, b: Cursor) => boolean;

function push(heap: Cursor[], cursor: Cursor, before: Before): void {
  heap.push(cursor);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    if (!before(heap[i] as Cursor, heap[parent] as Cursor)) break;
    swap(heap, i, parent);
    i = parent;
  }
}

function siftDown(heap: Cursor[], start: number, before: Before): void {
  let i = start;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let best = i;
    if (left < heap.length && before(heap[left] as Cursor, heap[best] as Cursor)) best = left;
    if (right < heap.length && before(heap[right] as Cursor, heap[best] as Cursor)) best = right;
    if (best === i) return;
    swap(heap, i, best);
    i = best;
  }
}

function swap(heap: Cursor[], i: number, j: number): void {
  const t = heap[i] as Cursor;
  heap[i] = heap[j] as Cursor;
  heap[j] = t;
}
