// A snapshot of the status summaries, written at a clean shutdown and while running (ADR 6,
// ADR 11), so a start reads one file plus the few status files changed since, instead of a
// million. It is never the source of truth: the status files are. The status files changed since
// it was written are those named by its journals (status-journal.ts), which are read again at
// start. It is used only when all of these hold, otherwise the start scans every status file:
// - it exists;
// - its format version is this code's;
// - its checksum matches (a damaged file is refused; a torn one cannot appear, it is renamed
//   into place only once complete and synced);
// - every `statuses/<account_id>/` either has the modification time recorded when it was
//   written, or holds a status named by a journal (its time changed by our own writes), and no
//   folder recorded then is gone: adding, removing or replacing a file behind our back (a
//   restored backup, a file copied in by hand) changes its directory's time, so such a snapshot
//   is stale.

import { createHash } from "node:crypto";
import { open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { compareIds } from "../../domain/ids.ts";
import { PRIVATE_FILE_MODE } from "../../private-modes.ts";
import { ignoreCode, TEMP_SUFFIX } from "./durable-writer.ts";
import { readJournals } from "./status-journal.ts";
import { NO_TAGS, type StatusSummary } from "./status-summary.ts";
import { StatusTable, TableColumns } from "./status-table.ts";
import { syncDir } from "./sync-dir.ts";
import { sortYielding } from "./yielding-sort.ts";

/** The snapshot's file, beside (not inside) `statuses/` so writing it leaves no trace there. */
export const SNAPSHOT_FILE = "statuses.snapshot";
const FORMAT = "wren-status-summaries";
/** 2: the header names the first journal that goes with the snapshot. */
const VERSION = 2;

const LOCAL = 1;
const DELETED = 2;
const HAS_MEDIA = 4;

type Line = [
  id: string,
  accountId: string,
  uri: string,
  visibility: StatusSummary["visibility"],
  flags: number,
  inReplyToId: string | null,
  inReplyToAccountId: string | null,
  reblogOfId: string | null,
  tags: string[],
];

function encode(s: StatusSummary): string {
  const flags = (s.local ? LOCAL : 0) | (s.deleted ? DELETED : 0) | (s.hasMedia ? HAS_MEDIA : 0);
  const line: Line = [
    s.id,
    s.accountId,
    s.uri,
    s.visibility,
    flags,
    s.inReplyToId,
    s.inReplyToAccountId,
    s.reblogOfId,
    s.tags as string[],
  ];
  return JSON.stringify(line);
}

function decode(line: Line): StatusSummary {
  const [id, accountId, uri, visibility, flags, inReplyToId, inReplyToAccountId, reblogOfId, tags] =
    line;
  if (typeof id !== "string" || typeof accountId !== "string" || !Array.isArray(tags)) {
    throw new Error("malformed entry");
  }
  return {
    id,
    accountId,
    uri,
    visibility,
    local: (flags & LOCAL) !== 0,
    deleted: (flags & DELETED) !== 0,
    hasMedia: (flags & HAS_MEDIA) !== 0,
    inReplyToId,
    inReplyToAccountId,
    reblogOfId,
    tags: tags.length === 0 ? NO_TAGS : tags,
  };
}

/** Modification times (ns) of `statuses/` and of each account folder in it, by name. */
async function folderTimes(statusesDir: string): Promise<Record<string, string>> {
  const times: Record<string, string> = {};
  const top = await stat(statusesDir, { bigint: true }).catch(ignoreCode("ENOENT"));
  if (!top) return times;
  times["."] = String(top.mtimeNs);
  const entries = await readdir(statusesDir, { withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const info = await stat(join(statusesDir, entry.name), { bigint: true });
    times[entry.name] = String(info.mtimeNs);
  }
  return times;
}

/**
 * True when every difference between the recorded and the current folder times is explained by
 * the journals: a folder new or changed since holds a journaled status. (`statuses/` itself
 * changes when an account folder is created; the folder sets are compared directly instead.)
 */
function explainedTimes(
  recorded: Record<string, string>,
  now: Record<string, string>,
  changed: ReadonlySet<string>,
): boolean {
  const journaled = new Set([...changed].map((path) => path.slice(0, path.indexOf("/"))));
  for (const name of Object.keys(recorded)) if (!(name in now)) return false;
  for (const [name, time] of Object.entries(now)) {
    if (name !== "." && recorded[name] !== time && !journaled.has(name)) return false;
  }
  return true;
}

/**
 * Writes the snapshot crash-safely (temporary file, fsync, rename, fsync of the directory).
 * `summaries` (a copy of the table's columns, or summaries in any order) must be taken after the writes that may still change a status file were named in
 * journal `journal` or later, and the folder times are read here, after that too: any change of
 * a folder after them is then a journaled write.
 */
export async function writeSnapshot(
  root: string,
  summaries: TableColumns | readonly StatusSummary[],
  journal = 0,
): Promise<void> {
  const path = join(root, SNAPSHOT_FILE);
  const temp = `${path}.${process.pid}${TEMP_SUFFIX}`;
  const hash = createHash("sha256");
  const folders = await folderTimes(join(root, "statuses"));
  const header = `${JSON.stringify({ format: FORMAT, version: VERSION, journal, folders })}\n`;
  try {
    const handle = await open(temp, "w", PRIVATE_FILE_MODE);
    try {
      let chunk = header;
      let count = 0;
      const flush = async () => {
        hash.update(chunk);
        await handle.write(chunk);
        chunk = "";
      };
      // In id order: the next start then files every id list already sorted, so the first read
      // of a million-entry timeline does not have to sort it. Sorted in slices: after a start
      // that read every file they come in directory order, and one sort of a million would
      // hold every request for seconds.
      const ordered =
        summaries instanceof TableColumns
          ? await summaries.inIdOrder()
          : await sortYielding([...summaries], (x, y) => compareIds(x.id, y.id));
      for (const summary of ordered) {
        chunk += `${encode(summary)}\n`;
        count++;
        if (chunk.length > 1 << 20) await flush();
      }
      await flush();
      // The trailer is the only line outside the checksum.
      await handle.write(`${JSON.stringify({ count, sha256: hash.digest("hex") })}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    await syncDir(root);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export type SnapshotResult =
  | {
      ok: true;
      /** The summaries, in the rows of a table (in id order when written by this code). */
      table: StatusTable;
      /** The status files (`<account_id>/<status_id>`) that may differ from the summaries. */
      changed: ReadonlySet<string>;
      /** The first journal that goes with it: a new run journals to a higher number. */
      journal: number;
    }
  | { ok: false; reason: "missing" | "version" | "corrupt" | "stale" };

/** Reads the snapshot if it is usable (see the top of this file). */
export async function readSnapshot(root: string): Promise<SnapshotResult> {
  const data = await readFile(join(root, SNAPSHOT_FILE)).catch(ignoreCode("ENOENT"));
  if (!data) return { ok: false, reason: "missing" };
  // Lines are cut from the buffer one by one: the whole file as one string could pass V8's
  // string length limit (about 512 MB) with a few million statuses.
  const end = data.length - 1;
  if (end < 0 || data[end] !== 10) return { ok: false, reason: "corrupt" };
  const trailerStart = data.lastIndexOf(10, end - 1) + 1;
  const headerEnd = data.indexOf(10);
  if (headerEnd < 0 || trailerStart <= headerEnd) return { ok: false, reason: "corrupt" };
  let trailer: { count?: unknown; sha256?: unknown };
  let header: {
    format?: unknown;
    version?: unknown;
    journal?: unknown;
    folders?: Record<string, string>;
  };
  try {
    header = JSON.parse(data.toString("utf8", 0, headerEnd));
    trailer = JSON.parse(data.toString("utf8", trailerStart, end));
  } catch {
    return { ok: false, reason: "corrupt" };
  }
  if (header.format !== FORMAT) return { ok: false, reason: "corrupt" };
  if (header.version !== VERSION) return { ok: false, reason: "version" };
  const digest = createHash("sha256").update(data.subarray(0, trailerStart)).digest("hex");
  const { folders, journal } = header;
  if (
    trailer.sha256 !== digest ||
    typeof folders !== "object" ||
    folders === null ||
    !Number.isSafeInteger(journal)
  ) {
    return { ok: false, reason: "corrupt" };
  }
  const changed = await readJournals(root, journal as number);
  if (!explainedTimes(folders, await folderTimes(join(root, "statuses")), changed)) {
    return { ok: false, reason: "stale" };
  }
  const table = new StatusTable();
  try {
    // About a megabyte of lines per JSON.parse, as one array: a million parses of one short
    // line each cost more than the parsing itself.
    for (let at = headerEnd + 1; at < trailerStart; ) {
      const next = data.indexOf(10, Math.min(at + (1 << 20), trailerStart - 1));
      const lines = data.toString("utf8", at, next).replaceAll("\n", ",");
      for (const line of JSON.parse(`[${lines}]`) as Line[]) {
        const summary = decode(line);
        // A second line for one id would leave a row no index files: the file is damaged.
        if (table.rowOf(summary.id) >= 0) throw new Error("duplicate id");
        table.write(-1, summary);
      }
      at = next + 1;
    }
  } catch {
    return { ok: false, reason: "corrupt" };
  }
  if (table.size !== trailer.count) return { ok: false, reason: "corrupt" };
  return { ok: true, table, changed, journal: journal as number };
}
