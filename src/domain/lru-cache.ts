// A bounded cache that forgets the least recently used entries first. One kind for every hot path
// that keeps things to avoid redoing work: status bodies kept off the disk, rendered status and
// account JSON, scanned texts, whole API answers.
//
// Exact LRU on a Map re-inserts the entry on every hit (a delete and a set); on the hot read paths
// that bookkeeping cost more than the lookups it saved (~9% of a timeline request's CPU). So
// entries live in two generations instead: a hit in the recent one costs one lookup; a hit in the
// older one moves the entry up; when the recent generation is full, the older one is dropped whole
// and the recent one becomes the older. The most recently used half of the capacity is always
// kept, and never more than the capacity is held.
//
// A cache of values that differ much in size (whole answers) may also be bounded by their weight
// (bytes): a generation is then full at half the count or half the weight, whichever comes first,
// and a value heavier than half the weight is not kept at all.

/** How heavy a value is, and the most all kept values may weigh together. */
export interface LruWeight<V> {
  max: number;
  /** Must give the same weight for a value each time it is asked. */
  of(value: V): number;
}

export class LruCache<K, V> {
  readonly #half: number;
  readonly #weigh: ((value: V) => number) | undefined;
  readonly #halfWeight: number;
  #recent = new Map<K, V>();
  #older = new Map<K, V>();
  #recentWeight = 0;
  #olderWeight = 0;

  constructor(capacity: number, weight?: LruWeight<V>) {
    this.#half = Math.ceil(Math.max(0, capacity) / 2);
    this.#weigh = weight?.of;
    this.#halfWeight = weight ? Math.max(0, weight.max) / 2 : Number.POSITIVE_INFINITY;
  }

  get size(): number {
    return this.#recent.size + this.#older.size;
  }

  /** What the kept values weigh together (0 without a weight bound). */
  get weight(): number {
    return this.#recentWeight + this.#olderWeight;
  }

  get(key: K): V | undefined {
    const value = this.#recent.get(key);
    if (value !== undefined) return value;
    const older = this.#older.get(key);
    if (older !== undefined) {
      this.#older.delete(key);
      if (this.#weigh) this.#olderWeight -= this.#weigh(older);
      this.#keep(key, older);
    }
    return older;
  }

  set(key: K, value: V): void {
    if (this.#weigh) {
      this.delete(key);
      if (this.#half > 0 && this.#weigh(value) <= this.#halfWeight) this.#keep(key, value);
      return;
    }
    this.#older.delete(key);
    if (this.#half === 0) return;
    if (this.#recent.has(key)) this.#recent.set(key, value);
    else this.#keep(key, value);
  }

  delete(key: K): void {
    if (this.#weigh) {
      const recent = this.#recent.get(key);
      if (recent !== undefined) this.#recentWeight -= this.#weigh(recent);
      const older = this.#older.get(key);
      if (older !== undefined) this.#olderWeight -= this.#weigh(older);
    }
    this.#recent.delete(key);
    this.#older.delete(key);
  }

  /** Puts a key that is in neither generation into the recent one. */
  #keep(key: K, value: V): void {
    const weight = this.#weigh ? this.#weigh(value) : 0;
    if (this.#recent.size >= this.#half || this.#recentWeight + weight > this.#halfWeight) {
      this.#older = this.#recent;
      this.#olderWeight = this.#recentWeight;
      this.#recent = new Map();
      this.#recentWeight = 0;
    }
    this.#recent.set(key, value);
    this.#recentWeight += weight;
  }
}
