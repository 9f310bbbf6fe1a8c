// Imports of Mastodon's CSV files (following, lists, blocks, mutes, domain blocks, bookmarks),
// one record per uploaded file: its rows are worked through one job each, and the record keeps
// which are done and why the failed ones failed (Mastodon's BulkImport and its rows).

export const IMPORT_TYPES = [
  "following",
  "lists",
  "blocks",
  "mutes",
  "domain-blocks",
  "bookmarks",
] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export function isImportType(value: string): value is ImportType {
  return (IMPORT_TYPES as readonly string[]).includes(value);
}

/**
 * Largest file taken, by the CLI and the settings page alike: the CLI sends it in one message of
 * the admin socket (512 KiB), and 384 KiB holds Mastodon's 20,000-row limit for every type but
 * long following lines. Mastodon's own cap is 20 MB; a larger file is refused with 413.
 */
export const IMPORT_FILE_BYTES = 384 * 1024;

/** How long a finished import's record (its progress and failures) is kept: Mastodon's week. */
export const IMPORT_RECORD_TTL_MS = 7 * 24 * 3600_000;

/** Merge adds to what the account has; overwrite also removes what the file does not list. */
export type ImportMode = "merge" | "overwrite";

/** One line of a file, as read (absent: the column is missing or empty). */
export interface ImportRow {
  /** `user@host` (or a bare local username), without a leading `@`. */
  acct?: string;
  showReblogs?: boolean;
  notify?: boolean;
  /** Only these languages (following); absent: all. */
  languages?: string[];
  hideNotifications?: boolean;
  /** Lowercased (domain blocks). */
  domain?: string;
  /** A status's ActivityPub id or URL (bookmarks). */
  uri?: string;
  listName?: string;
}

/** Row states in CsvImport.progress. */
export const ROW_WAITING = ".";
export const ROW_DONE = "+";
export const ROW_FAILED = "x";

export interface ImportFailure {
  /** The row's position among the file's rows, from 1. */
  row: number;
  /** What the row named: the account address, domain or status URL (a list's with its name). */
  value: string;
  reason: string;
}

export interface CsvImport {
  id: string;
  accountId: string;
  type: ImportType;
  mode: ImportMode;
  createdAt: string;
  /** When the last row was worked through; null while rows wait. */
  finishedAt: string | null;
  /** One character per row, in file order: ROW_WAITING, ROW_DONE or ROW_FAILED. */
  progress: string;
  failures: ImportFailure[];
}

export function importCounts(record: CsvImport): {
  total: number;
  processed: number;
  failed: number;
} {
  let waiting = 0;
  for (const c of record.progress) if (c === ROW_WAITING) waiting++;
  return {
    total: record.progress.length,
    processed: record.progress.length - waiting,
    failed: record.failures.length,
  };
}

/** What a row names, for the list of failures. */
export function rowValue(row: ImportRow): string {
  if (row.listName !== undefined) return `${row.listName}: ${row.acct ?? ""}`;
  return row.acct ?? row.domain ?? row.uri ?? "";
}
