// Strings that repeat across many statuses (author ids, uri prefixes, tag sets) stored once and
// named by a small number, so a status-table row holds a 4-byte index instead of a pointer to
// its own copy. Append-only: an index stays valid for the life of the process, which lets a
// copy of the table's columns (a snapshot being written) share the table.

export class StringTable {
  readonly #index = new Map<string, number>();
  readonly #strings: string[] = [];

  get size(): number {
    return this.#strings.length;
  }

  /** The index of `text`, added if new. */
  intern(text: string): number {
    const known = this.#index.get(text);
    if (known !== undefined) return known;
    const index = this.#strings.length;
    this.#strings.push(text);
    this.#index.set(text, index);
    return index;
  }

  /** The index of `text`, or -1 (lookups with a client's input must not grow the table). */
  find(text: string): number {
    return this.#index.get(text) ?? -1;
  }

  at(index: number): string {
    return this.#strings[index] as string;
  }
}
