// Whether an error is the storage failing (a full disk, a lost database connection) rather than
// anything about the data at hand. Code that takes failures of remote input for "nothing to act
// on" (a document that will not parse, a peer that does not answer) must let these through, so
// that the work is retried once the storage is back instead of being dropped as if refused.

import { StorageUnavailableError } from "../domain/errors.ts";

/** postgres.js's own codes for a connection that failed, closed or never opened. */
const PG_CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
]);

export function isStorageFailure(error: unknown): boolean {
  // json-file: every write it could not make.
  if (error instanceof StorageUnavailableError) return true;
  // PostgreSQL: an error the server answered (postgres.js's PostgresError), or the connection's.
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return name === "PostgresError" || (typeof code === "string" && PG_CONNECTION_CODES.has(code));
}
