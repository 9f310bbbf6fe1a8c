// Concurrent writes of one key may be acknowledged in any order (group commit); each write
// carries a sequence number and memory only moves forward, so the last call wins in memory as
// on disk.

export class WriteOrder {
  #sequence = 0;
  readonly #inFlight = new Map<string, { count: number; applied: number }>();

  /** Call before writing `key`; returns the write's sequence number. */
  begin(key: string): number {
    const sequence = ++this.#sequence;
    const entry = this.#inFlight.get(key);
    if (entry) entry.count++;
    else this.#inFlight.set(key, { count: 1, applied: 0 });
    return sequence;
  }

  /** Whether a durable write may show in memory: false when a later write already landed. */
  mayApply(key: string, sequence: number): boolean {
    const entry = this.#inFlight.get(key);
    if (entry) {
      if (sequence < entry.applied) return false;
      entry.applied = sequence;
    }
    return true;
  }

  /** Whether a write of `key` is under way (begun and not yet ended). */
  busy(key: string): boolean {
    return this.#inFlight.has(key);
  }

  /** Call once the write settled (durable or failed). */
  end(key: string): void {
    const entry = this.#inFlight.get(key);
    if (entry && --entry.count === 0) this.#inFlight.delete(key);
  }
}
