// A bounded cache that forgets the least recently used entry first. One kind for every hot path
// that keeps things to avoid redoing work: status bodies kept off the disk, rendered status and
// account JSON, scanned texts.

export class LruCache<K, V> {
  readonly #capacity: number;
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used
  // entry first, where eviction takes it.
  readonly #entries = new Map<K, V>();

  constructor(capacity: number) {
    this.#capacity = Math.max(0, capacity);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    if (this.#capacity === 0) return;
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value as K;
      this.#entries.delete(oldest);
    }
  }
}
