// A hash index from some key of a status-table row to the row, as one Int32Array (open
// addressing, linear probing): about 8–16 bytes per entry where a Map<string, string> cost a
// hash-table entry plus the key string (70–150 bytes). The key is not stored: the caller hashes
// it and says whether a row holds it; the rows' own columns answer that.

export class RowHash {
  /** row + 1 per slot; 0 is empty. The length is a power of two, at most half full. */
  #slots = new Int32Array(16);
  #size = 0;
  readonly #hashOf: (row: number) => number;

  /** `hashOf` gives the hash of a row's current key (used to move entries on growth and delete). */
  constructor(hashOf: (row: number) => number) {
    this.#hashOf = hashOf;
  }

  get size(): number {
    return this.#size;
  }

  /** The row holding the key, or -1. */
  find(hash: number, holds: (row: number) => boolean): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const entry = slots[i] as number;
      if (entry === 0) return -1;
      if (holds(entry - 1)) return entry - 1;
    }
  }

  /** Files the row under its key, in place of any other row filed under the same key. */
  set(row: number, hash: number, holds: (row: number) => boolean): void {
    if ((this.#size + 1) * 2 > this.#slots.length) this.#grow();
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const entry = slots[i] as number;
      if (entry === 0) {
        slots[i] = row + 1;
        this.#size++;
        return;
      }
      if (entry === row + 1 || holds(entry - 1)) {
        slots[i] = row + 1;
        return;
      }
    }
  }

  /** Unfiles the row if it is filed under the key hashed `hash`; a no-op otherwise. */
  delete(row: number, hash: number): void {
    const slots = this.#slots;
    const mask = slots.length - 1;
    let i = hash & mask;
    for (; ; i = (i + 1) & mask) {
      const entry = slots[i] as number;
      if (entry === 0) return;
      if (entry === row + 1) break;
    }
    this.#size--;
    // Backward shift: entries after the hole that could have sat in it move back, so a probe
    // never stops early at an emptied slot (no tombstones to pile up).
    for (let j = (i + 1) & mask; ; j = (j + 1) & mask) {
      const entry = slots[j] as number;
      if (entry === 0) break;
      const home = this.#hashOf(entry - 1) & mask;
      const between = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!between) {
        slots[i] = entry;
        i = j;
      }
    }
    slots[i] = 0;
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length - 1;
    for (const entry of old) {
      if (entry === 0) continue;
      let i = this.#hashOf(entry - 1) & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = entry;
    }
    this.#slots = slots;
  }
}
