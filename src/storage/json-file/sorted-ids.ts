// A list of ids kept in ascending id order, answering Mastodon's id-window queries (IdPage).
// Used for each account's statuses: newest first is simply the end of the list, reversed.

import { compareIds } from "../../domain/ids.ts";
import type { IdPage } from "../ports.ts";

export class SortedIds {
  #ids: string[] = [];
  // Appends out of order (a start-up load reads files in directory order, remote statuses can
  // arrive late) only mark the list unsorted; it is sorted once, on the next read, instead of
  // paying for a splice per insert.
  #sorted = true;

  get size(): number {
    return this.#ids.length;
  }

  /** Adds an id that is not in the list (the caller tracks membership). */
  add(id: string): void {
    const last = this.#ids.at(-1);
    if (this.#sorted && last !== undefined && compareIds(id, last) < 0) this.#sorted = false;
    this.#ids.push(id);
  }

  delete(id: string): void {
    this.#ensureSorted();
    const i = lowerBound(this.#ids, id);
    if (this.#ids[i] === id) this.#ids.splice(i, 1);
  }

  /** The ids inside the window, newest (largest) first. */
  page(page: IdPage): string[] {
    this.#ensureSorted();
    const ids = this.#ids;
    if (page.limit <= 0) return [];
    const hi = page.maxId === undefined ? ids.length : lowerBound(ids, page.maxId);
    let lo = 0;
    if (page.sinceId !== undefined) lo = Math.max(lo, upperBound(ids, page.sinceId));
    if (page.minId !== undefined) lo = Math.max(lo, upperBound(ids, page.minId));
    if (lo >= hi) return [];
    // min_id walks forward from the bound (the oldest ids above it); everything else takes the
    // newest ids below the upper bound. Either way the answer is newest first.
    const window =
      page.minId !== undefined
        ? ids.slice(lo, Math.min(hi, lo + page.limit))
        : ids.slice(Math.max(lo, hi - page.limit), hi);
    return window.reverse();
  }

  #ensureSorted(): void {
    if (this.#sorted) return;
    this.#ids.sort(compareIds);
    this.#sorted = true;
  }
}

/** Index of the first id >= `id`. */
function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIds(ids[mid] as string, id) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first id > `id`. */
function upperBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIds(ids[mid] as string, id) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
