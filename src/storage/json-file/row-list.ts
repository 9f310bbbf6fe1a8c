// A list of status-table rows kept in the order of a comparator (by id; or by parent, then id,
// for the one list of every reply), as an Int32Array: 4 bytes per entry where an array of id
// strings cost 8 plus the string. Like SortedIds, appends out of order during a start-up load
// only mark it unsorted (sorted once, on the next read); once running, an entry out of order is
// put in its place at once (a memmove), since a million-entry list sorted on the next read
// would hold the event loop.

export class RowList {
  #rows = new Int32Array(4);
  #size = 0;
  #sorted = true;
  /** The sorted rows as a view, made once per change: reads come far more often than changes. */
  #view: Int32Array | undefined;
  readonly #compare: (a: number, b: number) => number;

  constructor(compare: (a: number, b: number) => number) {
    this.#compare = compare;
  }

  get size(): number {
    return this.#size;
  }

  /** Adds a row that is not in the list (the caller tracks membership). */
  add(row: number, loading: boolean): void {
    this.#view = undefined;
    if (this.#size === this.#rows.length) {
      // 1.5×: a million-entry list wastes less than doubling would.
      const grown = new Int32Array(Math.max(4, Math.ceil(this.#size * 1.5)));
      grown.set(this.#rows);
      this.#rows = grown;
    }
    const last = this.#size - 1;
    const inOrder = last < 0 || this.#compare(row, this.#rows[last] as number) >= 0;
    if (inOrder || loading) {
      if (!inOrder) this.#sorted = false;
      this.#rows[this.#size++] = row;
      return;
    }
    const at = this.partition((r) => this.#compare(r, row) < 0);
    this.#rows.copyWithin(at + 1, at, this.#size);
    this.#rows[at] = row;
    this.#size++;
    // partition() made a view of the list before the insert.
    this.#view = undefined;
  }

  /** Removes the row; a no-op when it is not there. */
  delete(row: number): void {
    const rows = this.view();
    const at = this.partition((r) => this.#compare(r, row) < 0);
    if (at < rows.length && rows[at] === row) {
      this.#rows.copyWithin(at, at + 1, this.#size);
      this.#size--;
      this.#view = undefined;
    }
  }

  /** The rows in order; valid only until the next change (use it synchronously). */
  view(): Int32Array {
    if (this.#view !== undefined) return this.#view;
    const rows = this.#rows.subarray(0, this.#size);
    if (!this.#sorted) {
      rows.sort(this.#compare);
      this.#sorted = true;
    }
    this.#view = rows;
    return rows;
  }

  /** Index of the first row in [lo, hi) for which `before` is false (it holds for a prefix). */
  partition(before: (row: number) => boolean, lo = 0, hi = this.#size): number {
    const rows = this.view();
    let a = lo;
    let b = hi;
    while (a < b) {
      const mid = (a + b) >>> 1;
      if (before(rows[mid] as number)) a = mid + 1;
      else b = mid;
    }
    return a;
  }
}
