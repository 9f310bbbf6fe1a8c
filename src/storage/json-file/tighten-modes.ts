// At open, makes an existing data directory private again: one written by an older Wren (files
// 0644, folders 0755), copied from a backup, or unpacked by hand. Everything inside a folder
// that only its owner may enter is out of other users' reach, so when the data directory itself
// is private only its top level is looked at (cheap on a directory with a million statuses);
// when it is not, the whole tree is walked once and tightened, which makes later starts cheap.
// What cannot be changed (another owner, a read-only mount) is reported, never fatal.

import { chmod, lstat, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import { OTHERS_BITS, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../private-modes.ts";
import { forEachLimit } from "./parallel.ts";

const logger = getLogger(["wren", "storage"]);

export interface Tightened {
  /** Files and folders whose mode let other users in, now private. */
  fixed: string[];
  /** Those whose mode could not be changed, each with the reason. */
  failed: { path: string; reason: string }[];
}

/**
 * Takes group and other bits off `path` if it has any; sockets and links inside are left alone
 * (`follow` is for the data directory itself, which may be a link to where the data lives).
 */
async function tighten(path: string, result: Tightened, follow = false): Promise<boolean> {
  const stats = await (follow ? stat(path) : lstat(path)).catch(() => null);
  if (!stats || (!stats.isFile() && !stats.isDirectory())) return false;
  if ((stats.mode & OTHERS_BITS) === 0) return stats.isDirectory();
  try {
    await chmod(path, stats.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
    result.fixed.push(path);
  } catch (error) {
    result.failed.push({ path, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
  return stats.isDirectory();
}

async function tightenTree(dir: string, result: Tightened, deep: boolean): Promise<void> {
  const entries = await readdir(dir).catch(() => []);
  await forEachLimit(entries, 16, async (name) => {
    const path = join(dir, name);
    const isDir = await tighten(path, result);
    if (isDir && deep) await tightenTree(path, result, deep);
  });
}

/** Tightens `root` (see the top of this file) and logs what it changed or could not. */
export async function tightenDataDirectory(root: string): Promise<Tightened> {
  const result: Tightened = { fixed: [], failed: [] };
  // Windows has no such modes (NTFS access lists are inherited from the parent folder).
  if (process.platform === "win32") return result;
  const rootStats = await stat(root);
  const rootWasOpen = (rootStats.mode & OTHERS_BITS) !== 0;
  await tighten(root, result, true);
  await tightenTree(root, result, rootWasOpen);
  if (result.fixed.length > 0) {
    logger.warn(
      "The data directory {root} was readable by other users: made {count} files and folders " +
        "private (owner only), e.g. {example}",
      { root, count: result.fixed.length, example: result.fixed[0] },
    );
  }
  if (result.failed.length > 0) {
    const first = result.failed[0];
    logger.error(
      "The data directory {root} has {count} files or folders readable by other users that " +
        "Wren cannot make private, e.g. {path} ({reason}); run `chmod -R go-rwx {root}`",
      { root, count: result.failed.length, path: first?.path, reason: first?.reason },
    );
  }
  return result;
}
