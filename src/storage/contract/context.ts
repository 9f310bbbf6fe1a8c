// What each part of the storage contract gets: the storage under test (a fresh, empty one per
// test, replaced by reopen) and small helpers shared by the parts.

import type { Storage } from "../ports.ts";

export interface ContractContext {
  /** The storage under test; read it inside tests (reopen replaces it). */
  readonly storage: Storage;
  /** Closes the storage and opens the same data again. */
  reopen(): Promise<Storage>;
  /**
   * A second storage open on the same data at the same time, as another process would have it
   * (closed by the suite after the test). A backend one process owns (json-file, by its lock
   * file) answers the storage under test itself: its callers must then still see one another.
   */
  peer(): Promise<Storage>;
}

export const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);
export const sorted = (values: readonly string[]) => [...values].sort();

/**
 * Tries to change a record a store handed out. Backends may hand out copies (changing them is
 * harmless) or frozen records (changing them throws a TypeError); either way, the store must
 * not change, which the caller asserts next.
 */
export function tryToMutate(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}
