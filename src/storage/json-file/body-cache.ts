// A bounded most-recently-used cache of status bodies. Timelines read the newest statuses again
// and again, so a few tens of thousands of bodies keep reads off the disk; older ones are read
// from their files when asked for and evicted again when not.

export class BodyCache<V> {
  readonly #capacity: number;
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used
  // entry first, where eviction takes it.
  readonly #entries = new Map<string, V>();

  constructor(capacity: number) {
    this.#capacity = Math.max(0, capacity);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    if (this.#capacity === 0) return;
    this.#entries.set(key, value);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}
