// Storage.version() across processes, and a version per table for the records a process
// memoises (record-memo.ts). A process's own write bumps both as it resolves; a write by another
// process reaches this one through LISTEN wren_changes (the tables' triggers, migrations 0000 and
// 0018: the payload is "writer|table") and bumps them too. Kept answers are dropped on either, so
// none outlives a write by more than the notification's trip.

import type { Sql } from "./connect.ts";

export interface Changes {
  readonly version: number;
  /**
   * Changes to `table` so far: what a memo of its records compares against. Also moved by this
   * process's own writes to the table when their notification comes back, so a write that did not
   * go through a store (an import) is heard of too.
   */
  tableVersion(table: string): number;
  /**
   * Called by every store after a write that an API answer can show (not the job queue), with
   * the table written (a memo of another table stays: naming the table is what keeps memos
   * useful under writes).
   */
  bump(table: string): void;
  /** Everything may have changed (notifications were missed). */
  bumpAll(): void;
  /** Moves only `table`'s version (this process's own writes, heard back). */
  bumpTable(table: string): void;
}

export function createChanges(): Changes {
  let version = 0;
  // Changes of unknown tables count for every table.
  let everything = 0;
  const tables = new Map<string, number>();
  const bumpTable = (table: string) => {
    tables.set(table, (tables.get(table) ?? 0) + 1);
  };
  return {
    get version() {
      return version;
    },
    tableVersion: (table) => everything + (tables.get(table) ?? 0),
    bump(table) {
      version += 1;
      bumpTable(table);
    },
    bumpAll() {
      version += 1;
      everything += 1;
    },
    bumpTable,
  };
}

/** The writer and the table of a change notification ("writer|table"; older: "writer"). */
export function parseChange(payload: string): { writer: string; table: string | undefined } {
  const bar = payload.lastIndexOf("|");
  return bar === -1
    ? { writer: payload, table: undefined }
    : { writer: payload.slice(0, bar), table: payload.slice(bar + 1) };
}

/**
 * Listens for writes; resolves once listening. Returns the unlisten. `self` is this process's
 * application_name: its own writes were counted as they resolved, and counting their notification
 * again in the version would drop answers kept after the write for nothing; only the table's
 * version moves again.
 */
export async function listenForChanges(
  sql: Sql,
  changes: Changes,
  self: string,
): Promise<() => Promise<void>> {
  const { unlisten } = await sql.listen(
    "wren_changes",
    (payload) => {
      const { writer, table } = parseChange(payload);
      if (table === undefined) {
        if (writer !== self) changes.bumpAll();
      } else if (writer !== self) changes.bump(table);
      else changes.bumpTable(table);
    },
    // Notifications missed while the listening connection was down: assume anything changed.
    () => changes.bumpAll(),
  );
  return unlisten;
}
