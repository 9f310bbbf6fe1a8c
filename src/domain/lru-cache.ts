// A bounded cache that forgets the least recently used entries first. One kind for every hot path
// that keeps things to avoid redoing work: status bodies kept off the disk, rendered status and
// account JSON, scanned texts.
//
// Exact LRU on a Map re-inserts the entry on every hit (a delete and a set); on the hot read paths
// that bookkeeping cost more than the lookups it saved (~9% of a timeline request's CPU). So
// entries live in two generations instead: a hit in the recent one costs one lookup; a hit in the
// older one moves the entry up; when the recent generation is full, the older one is dropped whole
// and the recent one becomes the older. The most recently used half of the capacity is always
// kept, and never more than the capacity is held.

export class LruCache<K, V> {
  readonly #half: number;
  #recent = new Map<K, V>();
  #older = new Map<K, V>();

  constructor(capacity: number) {
    this.#half = Math.ceil(Math.max(0, capacity) / 2);
  }

  get size(): number {
    return this.#recent.size + this.#older.size;
  }

  get(key: K): V | undefined {
    const value = this.#recent.get(key);
    if (value !== undefined) return value;
    const older = this.#older.get(key);
    if (older !== undefined) {
      this.#older.delete(key);
      this.#keep(key, older);
    }
    return older;
  }

  set(key: K, value: V): void {
    this.#older.delete(key);
    if (this.#half === 0) return;
    if (this.#recent.has(key)) this.#recent.set(key, value);
    else this.#keep(key, value);
  }

  delete(key: K): void {
    this.#recent.delete(key);
    this.#older.delete(key);
  }

  /** Puts a key that is in neither generation into the recent one. */
  #keep(key: K, value: V): void {
    if (this.#recent.size >= this.#half) {
      this.#older = this.#recent;
      this.#recent = new Map();
    }
    this.#recent.set(key, value);
  }
}
