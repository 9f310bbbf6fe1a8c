// A snapshot of the status summaries, written at a clean shutdown so the next start reads one
// file instead of a million. It is never the source of truth: the status files are. It is used
// only when all of these hold, otherwise the start scans every status file:
// - it exists: the first status write of a run removes it (durably) before writing, so after a
//   crash with writes it is gone, and after a crash without writes it still matches the files;
// - its format version is this code's;
// - its checksum matches (a damaged file is refused; a torn one cannot appear, it is renamed
//   into place only once complete and synced);
// - the modification times of `statuses/` and of every `statuses/<account_id>/` are the ones
//   recorded when it was written: adding, removing or replacing a file (a restored backup, a
//   file copied in by hand) changes its directory's time, so such a snapshot is stale.

import { createHash } from "node:crypto";
import { open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { compareIds } from "../../domain/ids.ts";
import { PRIVATE_FILE_MODE } from "../../private-modes.ts";
import { ignoreCode, TEMP_SUFFIX } from "./durable-writer.ts";
import { NO_TAGS, type StatusSummary, StringPool } from "./status-summary.ts";

/** The snapshot's file, beside (not inside) `statuses/` so writing it leaves no trace there. */
export const SNAPSHOT_FILE = "statuses.snapshot";
const FORMAT = "wren-status-summaries";
const VERSION = 1;

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

function decode(line: Line, pool: StringPool): StatusSummary {
  const [id, accountId, uri, visibility, flags, inReplyToId, inReplyToAccountId, reblogOfId, tags] =
    line;
  if (typeof id !== "string" || typeof accountId !== "string" || !Array.isArray(tags)) {
    throw new Error("malformed entry");
  }
  return Object.freeze({
    id,
    accountId: pool.get(accountId),
    uri,
    visibility: pool.get(visibility),
    local: (flags & LOCAL) !== 0,
    deleted: (flags & DELETED) !== 0,
    hasMedia: (flags & HAS_MEDIA) !== 0,
    inReplyToId,
    inReplyToAccountId: pool.get(inReplyToAccountId),
    reblogOfId,
    tags: tags.length === 0 ? NO_TAGS : Object.freeze(tags.map((t) => pool.get(t))),
  });
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

function sameTimes(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * Writes the snapshot crash-safely (temporary file, fsync, rename, fsync of the directory).
 * Call only while no status write can happen, after every write so far is durable.
 */
export async function writeSnapshot(
  root: string,
  summaries: Iterable<StatusSummary>,
): Promise<void> {
  const path = join(root, SNAPSHOT_FILE);
  const temp = `${path}.${process.pid}${TEMP_SUFFIX}`;
  const hash = createHash("sha256");
  const header = `${JSON.stringify({ format: FORMAT, version: VERSION, folders: await folderTimes(join(root, "statuses")) })}\n`;
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
      // of a million-entry timeline does not have to sort it.
      const ordered = [...summaries].sort((x, y) => compareIds(x.id, y.id));
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

/** Removes the snapshot durably (before the first status write of a run). */
export async function removeSnapshot(root: string): Promise<void> {
  await rm(join(root, SNAPSHOT_FILE), { force: true });
  await syncDir(root);
}

export type SnapshotResult =
  | { ok: true; summaries: StatusSummary[] }
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
  let header: { format?: unknown; version?: unknown; folders?: Record<string, string> };
  try {
    header = JSON.parse(data.toString("utf8", 0, headerEnd));
    trailer = JSON.parse(data.toString("utf8", trailerStart, end));
  } catch {
    return { ok: false, reason: "corrupt" };
  }
  if (header.format !== FORMAT) return { ok: false, reason: "corrupt" };
  if (header.version !== VERSION) return { ok: false, reason: "version" };
  const digest = createHash("sha256").update(data.subarray(0, trailerStart)).digest("hex");
  if (trailer.sha256 !== digest || typeof header.folders !== "object") {
    return { ok: false, reason: "corrupt" };
  }
  if (!sameTimes(header.folders, await folderTimes(join(root, "statuses")))) {
    return { ok: false, reason: "stale" };
  }
  const pool = new StringPool();
  const summaries: StatusSummary[] = [];
  try {
    // About a megabyte of lines per JSON.parse, as one array: a million parses of one short
    // line each cost more than the parsing itself.
    for (let at = headerEnd + 1; at < trailerStart; ) {
      const next = data.indexOf(10, Math.min(at + (1 << 20), trailerStart - 1));
      const lines = data.toString("utf8", at, next).replaceAll("\n", ",");
      for (const line of JSON.parse(`[${lines}]`) as Line[]) summaries.push(decode(line, pool));
      at = next + 1;
    }
  } catch {
    return { ok: false, reason: "corrupt" };
  }
  if (summaries.length !== trailer.count) return { ok: false, reason: "corrupt" };
  return { ok: true, summaries };
}

/** Fsyncs a directory, so renames and removals in it survive a power cut. */
export async function syncDir(dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
