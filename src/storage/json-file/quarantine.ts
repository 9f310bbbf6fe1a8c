// Damage is local: a record file that cannot be parsed (truncated, junk bytes, a stray copy
// whose content belongs under another name) costs that record only. It is logged with its path
// and moved aside, never deleted, to `<data>/quarantine/<path in the data directory>.<time>`;
// the server then serves everything else as if the record did not exist (timelines skip it,
// its own URL answers 404). `wren doctor` opens the data directory with an inspector instead,
// which lists the damage and moves files aside only when asked (--fix).

import { mkdir, rename } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { getLogger } from "@logtape/logtape";
import { PRIVATE_DIR_MODE } from "../../private-modes.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { syncDir } from "./sync-dir.ts";

const logger = getLogger(["wren", "storage"]);

/** Folder of the data directory that holds the files moved aside; no store reads it. */
export const QUARANTINE_FOLDER = "quarantine";

/** A record file's content is unusable (its message names the file and why). */
export class DamagedRecordError extends Error {
  readonly path: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(`Corrupt record file ${path}: ${reason}`, options);
    this.name = "DamagedRecordError";
    this.path = path;
  }
}

/**
 * Read errors that mean this one file is damaged (a bad disk block), unlike a permission
 * problem or a missing directory, which concern the whole data directory and stay fatal.
 */
const DAMAGE_CODES = new Set(["EIO", "EILSEQ", "EBADMSG", "EUCLEAN"]);

/** Whether `error`, thrown while reading or parsing one record file, is damage to that file. */
export function isDamage(error: unknown): boolean {
  if (error instanceof DamagedRecordError) return true;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && DAMAGE_CODES.has(code);
}

/** What opening the data directory does with each damaged file and each record read. */
export interface LoadInspector {
  /** Called once per damaged file instead of moving it aside. */
  damaged(root: string, path: string, reason: string): Promise<void>;
  /** Called for every record file read and parsed (folder as in CollectionSpec). */
  loaded?(folder: string, file: string, record: object): void;
  /**
   * Called for each status file that differs from its journal line's bytes (ADR 0065), which
   * a start writes again before reading it: the inspection reads the journal's bytes instead.
   */
  restorable?(path: string): void;
}

// Keyed by the writer, the one object every store of an open data directory shares: the
// inspector reaches every record reader without widening each store's signature.
const inspectors = new WeakMap<DurableWriter, LoadInspector>();

/** Makes `inspector` handle the damage found by the stores opened with `writer`. */
export function inspectWith(writer: DurableWriter, inspector: LoadInspector): void {
  inspectors.set(writer, inspector);
}

/** Whether `writer` belongs to an inspection, which must change nothing on disk. */
export function isInspecting(writer: DurableWriter): boolean {
  return inspectors.has(writer);
}

export function noteLoaded(
  writer: DurableWriter,
  folder: string,
  file: string,
  record: object,
): void {
  inspectors.get(writer)?.loaded?.(folder, file, record);
}

export function noteRestorable(writer: DurableWriter, path: string): void {
  inspectors.get(writer)?.restorable?.(path);
}

/** Handles one damaged record file: moves it aside (the default) or hands it to the inspector. */
export async function reportDamage(
  writer: DurableWriter,
  root: string,
  path: string,
  error: unknown,
): Promise<void> {
  const reason = reasonOf(error, path);
  const inspector = inspectors.get(writer);
  if (inspector) return inspector.damaged(root, path, reason);
  await quarantineFile(root, path, reason);
}

/** The error's message without the "Corrupt record file <path>: " prefix. */
function reasonOf(error: unknown, path: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const prefix = `Corrupt record file ${path}: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

/** `2026-11-26T02-15-00.123Z`: sortable, and no colon (not allowed in Windows file names). */
function stamp(now: Date): string {
  return now.toISOString().replaceAll(":", "-");
}

/**
 * Moves the damaged file `path` (inside `root`) to the quarantine folder and logs it at error
 * level. Returns where it went, or undefined when it could not be moved (then it stays in place,
 * is left out all the same, and the log says so).
 */
export async function quarantineFile(
  root: string,
  path: string,
  reason: string,
  now = new Date(),
): Promise<string | undefined> {
  const target = join(root, QUARANTINE_FOLDER, `${relative(root, path)}.${stamp(now)}`);
  try {
    await mkdir(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    await rename(path, target);
    // The move itself survives a power cut only once both directories are synced.
    await Promise.all([syncDir(dirname(path)), syncDir(dirname(target))]);
  } catch (error) {
    logger.error(
      "Damaged record file {path} ({reason}) could not be moved aside ({error}); its record is " +
        "left out, and the file is read (and refused) again at the next start",
      { path, reason, error: (error as Error).message },
    );
    return undefined;
  }
  logger.error(
    "Damaged record file {path} ({reason}): moved to {quarantined}; its record is left out, " +
      "everything else is served. Run `wren doctor` to check the whole data directory",
    { path, reason, quarantined: target },
  );
  return target;
}
