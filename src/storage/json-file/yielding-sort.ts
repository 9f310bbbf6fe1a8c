// Sorting a million entries at once holds the event loop for seconds (about 2 s on a small
// server, far more on a slow disk's busy machine): every request waits that long. This merge
// sort does the same work in slices, giving the loop back between them, so requests and timers
// still run while, say, the first status snapshot after a full read is ordered (issue 15).

import { setImmediate as nextTurn } from "node:timers/promises";

/** Entries sorted (or merged) per slice before the loop gets a turn. */
const SLICE = 1 << 15;

/**
 * Sorts `items` in place, stably, yielding to the event loop between slices of work; resolves
 * with `items`. The caller must not change the array meanwhile (sort a copy if others may).
 */
export async function sortYielding<T>(
  items: T[],
  compare: (a: T, b: T) => number,
  slice = SLICE,
): Promise<T[]> {
  const n = items.length;
  // Runs of `slice` entries, each sorted by the engine's own (stable) sort.
  for (let lo = 0; lo < n; lo += slice) {
    const run = items.slice(lo, lo + slice).sort(compare);
    for (let i = 0; i < run.length; i++) items[lo + i] = run[i] as T;
    if (n > slice) await nextTurn();
  }
  // Bottom-up merges of neighbouring runs, back and forth between two arrays.
  let from = items;
  let to: T[] = n > slice ? new Array<T>(n) : items;
  for (let width = slice; width < n; width *= 2) {
    let moved = 0;
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (k < hi) {
        // `<= 0` takes the left run first on ties: the merge keeps the sort stable.
        if (j >= hi || (i < mid && compare(from[i] as T, from[j] as T) <= 0))
          to[k++] = from[i++] as T;
        else to[k++] = from[j++] as T;
        if (++moved === slice) {
          moved = 0;
          await nextTurn();
        }
      }
    }
    [from, to] = [to, from];
  }
  if (from !== items) for (let i = 0; i < n; i++) items[i] = from[i] as T;
  return items;
}
