// The storage port of collections (domain/collection.ts): part of ports.ts, kept apart for its
// size. Imports only domain/.

import type { Collection } from "../domain/collection.ts";

/** Users' collections, each with its items inline. */
export interface CollectionStore {
  get(id: string): Promise<Collection | undefined>;
  /** The owner's collections, newest first (a user has at most a few). */
  listByAccount(accountId: string): Promise<Collection[]>;
  /**
   * The collections holding an accepted item for `accountId` ("featured in"), newest first,
   * skipping the first `offset`.
   */
  listFeaturing(accountId: string, offset: number, limit: number): Promise<Collection[]>;
  /** Creates or replaces the collection (with its items). */
  put(collection: Collection): Promise<void>;
  /** Removes the collection; false when there was none. */
  delete(id: string): Promise<boolean>;
}
