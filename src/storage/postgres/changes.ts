// Storage.version() across processes, and a version per table for the records a process
// memoises (record-memo.ts). A process's own write bumps both as it resolves; a write by another
// process reaches this one through LISTEN wren_changes (the tables' triggers, migrations 0000 and
// 0018: the payload is "writer|table") and bumps them too. Kept answers are dropped on either, so
// none outlives a write by more than the notification's trip. Statuses are written too often for
// a memo emptied whole: their signal names the rows ("writer|statuses:id,id,…", migration 0037),
// and a row memo (row-memo.ts) forgets just those. So do edges ("writer|edges:kind account
// target,…") and boosts ("writer|reblogs:account original,…"), migration 0038 (edge-memo.ts,
// reblog-memo.ts).

import { ALL_KINDS, KindVersions, type VersionKind } from "../version-kinds.ts";
import type { Sql } from "./connect.ts";
import { kindsOfChange } from "./table-kinds.ts";

export interface Changes {
  readonly version: number;
  /**
   * Storage.versionOf: moves with `version`, for the kinds of the tables written (table-kinds.ts;
   * every kind for a change whose table is unknown or missed).
   */
  versionOf(kinds: readonly VersionKind[]): number;
  /**
   * Changes to `table` so far: what a memo of its records compares against. Also moved by this
   * process's own writes to the table when their notification comes back, so a write that did not
   * go through a store (an import) is heard of too.
   */
  tableVersion(table: string): number;
  /**
   * Changes to `table` by other processes only (their signals, and missed notifications): for a
   * store that counts its own writes finely itself (the key–value store's versions by prefix),
   * which its own signal heard back would move for every prefix.
   */
  othersVersion(table: string): number;
  /** Another process's write to `table`, heard (moves what `bump` moves, and othersVersion). */
  heard(table: string): void;
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
  /**
   * A write to the rows `ids` of `table` (this process's, as it resolves, or another's, heard):
   * tells the row watchers of the table, and bumps as `bump` does unless `heardBack` (this
   * process's own write, counted already).
   */
  rows(table: string, ids: readonly string[], heardBack?: boolean): void;
  /**
   * Calls `listener` with the ids of every write to `table`'s rows, or with undefined when any
   * row may have changed (a write that did not name them, missed notifications). Synchronous,
   * before the write's promise resolves for this process's own writes; `heardBack` when it is
   * this process's own write's notification come back (told once already). Returns the unwatch.
   */
  watchRows(
    table: string,
    listener: (ids: readonly string[] | undefined, heardBack: boolean) => void,
  ): () => void;
}

export function createChanges(): Changes {
  // Storage.version() is their total: each move of it names the kinds of what moved it.
  const versions = new KindVersions();
  // Changes of unknown tables count for every table.
  let everything = 0;
  const tables = new Map<string, number>();
  const others = new Map<string, number>();
  const watchers = new Map<
    string,
    Set<(ids: readonly string[] | undefined, heardBack: boolean) => void>
  >();
  const tell = (table: string, ids: readonly string[] | undefined, heardBack = false) => {
    for (const listener of watchers.get(table) ?? []) listener(ids, heardBack);
  };
  const bumpTable = (table: string) => {
    tables.set(table, (tables.get(table) ?? 0) + 1);
    tell(table, undefined);
  };
  return {
    get version() {
      return versions.total;
    },
    versionOf: (kinds) => versions.of(kinds),
    tableVersion: (table) => everything + (tables.get(table) ?? 0),
    othersVersion: (table) => everything + (others.get(table) ?? 0),
    bump(table) {
      versions.note(kindsOfChange(table));
      bumpTable(table);
    },
    heard(table) {
      others.set(table, (others.get(table) ?? 0) + 1);
      versions.note(kindsOfChange(table));
      bumpTable(table);
    },
    bumpAll() {
      versions.note(ALL_KINDS);
      everything += 1;
      for (const table of watchers.keys()) tell(table, undefined);
    },
    bumpTable,
    rows(table, ids, heardBack = false) {
      if (!heardBack) versions.note(kindsOfChange(table, ids));
      tables.set(table, (tables.get(table) ?? 0) + 1);
      tell(table, ids, heardBack);
    },
    watchRows(table, listener) {
      const set = watchers.get(table) ?? new Set();
      watchers.set(table, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}

/** What a change notification tells. */
export interface Change {
  writer: string;
  /** Undefined: an older process's signal ("writer"), anything may have changed. */
  table: string | undefined;
  /** The rows written, when the signal names them ("writer|table:id,id"). */
  ids?: string[];
}

/** Reads a change notification: "writer|table:id,…", "writer|table" or (older) "writer". */
export function parseChange(payload: string): Change {
  const bar = payload.lastIndexOf("|");
  if (bar === -1) return { writer: payload, table: undefined };
  const writer = payload.slice(0, bar);
  const rest = payload.slice(bar + 1);
  const colon = rest.indexOf(":");
  if (colon === -1) return { writer, table: rest };
  return { writer, table: rest.slice(0, colon), ids: rest.slice(colon + 1).split(",") };
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
      const { writer, table, ids } = parseChange(payload);
      if (table === undefined) {
        if (writer !== self) changes.bumpAll();
      } else if (ids !== undefined) changes.rows(table, ids, writer === self);
      else if (writer !== self) changes.heard(table);
      else changes.bumpTable(table);
    },
    // Notifications missed while the listening connection was down: assume anything changed.
    () => changes.bumpAll(),
  );
  return unlisten;
}
