// A memo that forgets: at most about twice `limit` entries, the least recently used going first.
// Two generations instead of a true LRU list: a hit in the older one moves the entry to the
// current one, and when the current one fills up the older one is dropped whole. Lookups and
// inserts stay a Map operation or two, which matters on the hot paths that use it (rendered
// statuses, scanned texts).

export class BoundedMemo<K, V> {
  readonly #limit: number;
  #current = new Map<K, V>();
  #previous = new Map<K, V>();

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  get(key: K): V | undefined {
    const value = this.#current.get(key);
    if (value !== undefined) return value;
    const old = this.#previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.#current.size >= this.#limit && !this.#current.has(key)) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, value);
  }

  /** Entries held now (both generations; a key in both counts twice). */
  get size(): number {
    return this.#current.size + this.#previous.size;
  }
}
