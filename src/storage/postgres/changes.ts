// Storage.version() across processes. A process's own write bumps the number as it resolves; a
// write by another process reaches this one through LISTEN wren_changes (the tables' triggers,
// migration 0000) and bumps it too. Kept answers are dropped on either, so none outlives a write
// by more than the notification's trip.

import type { Sql } from "./connect.ts";

export interface Changes {
  readonly version: number;
  /** Called by every store after a write that an API answer can show (not the job queue). */
  bump(): void;
}

export function createChanges(): Changes {
  let version = 0;
  return {
    get version() {
      return version;
    },
    bump() {
      version += 1;
    },
  };
}

/**
 * Listens for other processes' writes; resolves once listening. Returns the unlisten. `self` is
 * this process's application_name: its own writes were counted as they resolved, and counting
 * their notification again later would drop answers kept after the write for nothing.
 */
export async function listenForChanges(
  sql: Sql,
  changes: Changes,
  self: string,
): Promise<() => Promise<void>> {
  const { unlisten } = await sql.listen(
    "wren_changes",
    (writer) => {
      if (writer !== self) changes.bump();
    },
    // Notifications missed while the listening connection was down: assume anything changed.
    () => changes.bump(),
  );
  return unlisten;
}
