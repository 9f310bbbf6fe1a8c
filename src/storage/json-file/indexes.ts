// Secondary in-memory indexes, kept in step with a record collection through its onChange hook.

/** key → id of the one record holding that key (username, uri, token hash…). */
export class UniqueIndex {
  #map = new Map<string, string>();

  get(key: string): string | undefined {
    return this.#map.get(key);
  }

  set(key: string, id: string): void {
    this.#map.set(key, id);
  }

  /** Removes the entry only if it still points at `id`: another record may have taken the key. */
  delete(key: string, id: string): void {
    if (this.#map.get(key) === id) this.#map.delete(key);
  }
}

/** key → ids of every record holding that key (tokens of an account…). */
export class GroupIndex {
  #map = new Map<string, Set<string>>();

  get(key: string): ReadonlySet<string> {
    return this.#map.get(key) ?? new Set();
  }

  add(key: string, id: string): void {
    let ids = this.#map.get(key);
    if (!ids) {
      ids = new Set();
      this.#map.set(key, ids);
    }
    ids.add(id);
  }

  delete(key: string, id: string): void {
    const ids = this.#map.get(key);
    if (!ids) return;
    ids.delete(id);
    if (ids.size === 0) this.#map.delete(key);
  }
}

/** key → how many records hold it (remote domains of accounts…). */
export class CountIndex {
  #map = new Map<string, number>();

  add(key: string): void {
    this.#map.set(key, (this.#map.get(key) ?? 0) + 1);
  }

  delete(key: string): void {
    const n = (this.#map.get(key) ?? 0) - 1;
    if (n > 0) this.#map.set(key, n);
    else this.#map.delete(key);
  }

  keys(): string[] {
    return [...this.#map.keys()];
  }
}
