// A list of entries kept in the order of a comparator, for indexes whose order is not the record
// id: jobs by due time, conversations by their last status. Like SortedIds, inserts out of order
// only mark the list unsorted and it is sorted once on the next read, so a start-up load does not
// pay a splice per record.

import type { IdPage } from "../ports.ts";

export class SortedList<T> {
  #items: T[] = [];
  #sorted = true;
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  get size(): number {
    return this.#items.length;
  }

  /** Adds an entry that is not in the list (the caller tracks membership). */
  add(item: T): void {
    const last = this.#items.at(-1);
    if (this.#sorted && last !== undefined && this.#compare(item, last) < 0) this.#sorted = false;
    this.#items.push(item);
  }

  /** Removes the entry comparing equal to `item`; a no-op when there is none. */
  delete(item: T): void {
    const items = this.view();
    const i = this.partition((x) => this.#compare(x, item) < 0);
    if (i < items.length && this.#compare(items[i] as T, item) === 0) items.splice(i, 1);
  }

  /**
   * The entries in order. Valid only until the next change of the list: use it synchronously
   * and do not keep it.
   */
  view(): T[] {
    if (!this.#sorted) {
      this.#items.sort(this.#compare);
      this.#sorted = true;
    }
    return this.#items;
  }

  /** Index of the first entry for which `before` is false (`before` must hold for a prefix). */
  partition(before: (item: T) => boolean): number {
    const items = this.view();
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(items[mid] as T)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * The IdPage window of a list sorted ascending by an id-like key (ties broken by the comparator),
 * newest first, with the same meaning of max_id, since_id and min_id as SortedIds.page.
 */
export function pageByKey<T>(
  list: SortedList<T>,
  keyOf: (item: T) => string,
  compareKeys: (a: string, b: string) => number,
  page: IdPage,
): T[] {
  if (page.limit <= 0) return [];
  const { maxId, sinceId, minId } = page;
  const hi =
    maxId === undefined ? list.size : list.partition((x) => compareKeys(keyOf(x), maxId) < 0);
  let lo = 0;
  for (const bound of [sinceId, minId]) {
    if (bound === undefined) continue;
    lo = Math.max(
      lo,
      list.partition((x) => compareKeys(keyOf(x), bound) <= 0),
    );
  }
  if (lo >= hi) return [];
  const items = list.view();
  const window =
    minId !== undefined
      ? items.slice(lo, Math.min(hi, lo + page.limit))
      : items.slice(Math.max(lo, hi - page.limit), hi);
  return window.reverse();
}
