// The first pass of `wren doctor` over a data directory: counts the record files (the total of
// the progress bar), finds files and folders other users can reach (Wren keeps 0600/0700, see
// private-modes.ts) or that belong to another user than the one running the check, and lists the
// leftovers of interrupted writes. The quarantine folder is not looked into: it holds what was
// already set aside.

import { lstat, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { OTHERS_BITS } from "../../../private-modes.ts";
import { TEMP_SUFFIX } from "../durable-writer.ts";
import { forEachLimit } from "../parallel.ts";
import { QUARANTINE_FOLDER } from "../quarantine.ts";

export interface ModeProblem {
  path: string;
  isDirectory: boolean;
  /** Permission bits, e.g. 0o644. */
  mode: number;
  /** Set when another user owns it (the server could not change it). */
  ownerUid?: number;
}

export interface DirectoryWalk {
  /** `.json` files outside the quarantine folder. */
  jsonFiles: number;
  modeProblems: ModeProblem[];
  /** Temporary files of writes a crash interrupted (removed at the next start). */
  leftovers: string[];
}

export async function walkDataDirectory(root: string): Promise<DirectoryWalk> {
  const walk: DirectoryWalk = { jsonFiles: 0, modeProblems: [], leftovers: [] };
  const uid = process.getuid?.();
  const look = async (path: string): Promise<void> => {
    const info = await lstat(path);
    if (!info.isFile() && !info.isDirectory()) return;
    // Windows has no such modes (NTFS access lists are inherited from the parent folder).
    const open = process.platform !== "win32" && (info.mode & OTHERS_BITS) !== 0;
    const foreign = uid !== undefined && info.uid !== uid;
    if (open || foreign) {
      walk.modeProblems.push({
        path,
        isDirectory: info.isDirectory(),
        mode: info.mode & 0o777,
        ...(foreign ? { ownerUid: info.uid } : {}),
      });
    }
    if (info.isFile()) {
      if (path.endsWith(".json")) walk.jsonFiles++;
      else if (path.endsWith(TEMP_SUFFIX)) walk.leftovers.push(path);
      return;
    }
    if (relative(root, path) === QUARANTINE_FOLDER) return;
    const names = await readdir(path);
    await forEachLimit(names, 16, (name) => look(join(path, name)));
  };
  await look(root);
  return walk;
}
