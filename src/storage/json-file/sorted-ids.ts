// A list of ids kept in ascending id order, answering Mastodon's id-window queries (IdPage).
// Used for each account's statuses, the public and hashtag timelines, replies, reblogs and edges:
// newest first is simply the end of the list, reversed.

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

  /** Every id, oldest (smallest) first; a copy. */
  ascending(): string[] {
    return [...this.view()];
  }

  /**
   * The sorted ids themselves, for merging several lists without copying them. Valid only until
   * the next change of the list: use it synchronously and do not keep it.
   */
  view(): readonly string[] {
    this.#ensureSorted();
    return this.#ids;
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

/** key → the sorted ids filed under it (statuses per author, edges per account); empty lists go. */
export class SortedGroups {
  readonly #lists = new Map<string, SortedIds>();

  /** undefined when nothing is filed under the key. */
  get(key: string): SortedIds | undefined {
    return this.#lists.get(key);
  }

  size(key: string): number {
    return this.#lists.get(key)?.size ?? 0;
  }

  /** Files an id that is not yet under the key. */
  add(key: string, id: string): void {
    let ids = this.#lists.get(key);
    if (!ids) {
      ids = new SortedIds();
      this.#lists.set(key, ids);
    }
    ids.add(id);
  }

  /** Unfiles the id; a no-op when it is not there. */
  delete(key: string, id: string): void {
    const ids = this.#lists.get(key);
    if (!ids) return;
    ids.delete(id);
    if (ids.size === 0) this.#lists.delete(key);
  }
}

/** Index of the first id >= `id`. */
export function lowerBound(ids: readonly string[], id: string): number {
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
export function upperBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIds(ids[mid] as string, id) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
