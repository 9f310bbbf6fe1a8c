// Many files made durable at once by syncing their file systems (syncfs(2), through `sync -f`
// of coreutils or BusyBox) instead of one fsync per file (ADR 0085). A snapshot makes durable the
// status files written since the last one without an fsync (ADRs 0065, 0084): about 20,000 of
// them. One by one, each fsync is its own write-back and its own cache flush of the device:
// about 70 µs of the machine's CPU per file here, as much as a seventh of a status creation's.
// syncfs writes the same files back in one pass and flushes the device once per file system.
//
// Node has no binding for syncfs, so a child process makes the call: one spawn per snapshot.
// Linux only, where syncfs reports write-back errors (since Linux 5.8) as fsync does; anywhere
// else, or when the program cannot be run or fails, the caller syncs file by file, which also
// says which file failed.

import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { release } from "node:os";
import { forEachLimit } from "./parallel.ts";

/** Below this many files, fsyncs one by one cost less than starting a process. */
export const FILE_SYSTEM_SYNC_FROM = 64;

/** Whether this kernel's syncfs reports write-back errors (Linux 5.8 and later). */
export function syncfsReportsErrors(platform = process.platform, kernel = release()): boolean {
  if (platform !== "linux") return false;
  const [major = 0, minor = 0] = kernel.split(".").map((part) => Number.parseInt(part, 10));
  return major > 5 || (major === 5 && minor >= 8);
}

/**
 * One directory per file system among `dirs` (by device number): syncing the file system of
 * each covers every file and folder entry in all of them. Directories gone are left out.
 */
export async function oneDirPerFileSystem(dirs: readonly string[]): Promise<string[]> {
  const byDevice = new Map<number, string>();
  await forEachLimit(dirs, 16, async (dir) => {
    const info = await stat(dir).catch(() => undefined);
    if (info !== undefined && !byDevice.has(info.dev)) byDevice.set(info.dev, dir);
  });
  return [...byDevice.values()];
}

/**
 * Syncs the file systems holding `dirs`: true once every one is durable, false when this could
 * not be done here (not Linux 5.8 or later, no `sync` program, or it failed), in which case
 * nothing may be assumed durable and the caller fsyncs file by file.
 */
export async function syncFileSystems(dirs: readonly string[], program = "sync"): Promise<boolean> {
  if (!syncfsReportsErrors()) return false;
  const targets = await oneDirPerFileSystem(dirs);
  if (targets.length === 0) return true;
  return new Promise((resolve) => {
    // `--` so that a path starting with a dash is never read as an option.
    execFile(program, ["-f", "--", ...targets], (error) => resolve(error === null));
  });
}
