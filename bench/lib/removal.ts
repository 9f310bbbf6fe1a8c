// A bench's data directories go when the bench process ends, not between its measurements.
// On an ext4 file system without a journal (the bench machines' disk), a new file's inode is
// found by skipping every free inode of the block group that was deleted in the last minute (the
// last six while the inode table's block is still dirty), and that search holds the folder's
// lock. Removing tens of thousands of files between two measured loads made every file creation
// of the next one scan them: status creation ran at 1,669/s right after 30,000 files were
// removed and 3,520/s without (docs/PERFORMANCE.md, "Status creation, round ten"), depending on
// which block group the new directory landed in. Files written over (rename onto a name) free
// their old inode the same way; the bench's own loads create new files only.

import { rmSync } from "node:fs";

const paths: string[] = [];

/**
 * Removes `path` (recursively) when the process exits, after every measurement; also when the
 * bench is interrupted (Ctrl-C, a kill), which would otherwise leave gigabytes in the temporary
 * folder.
 */
export function removeAtExit(path: string): void {
  if (paths.length === 0) {
    process.once("exit", () => {
      for (const each of paths) rmSync(each, { recursive: true, force: true });
    });
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      // The shell's convention for a death by signal; exit() runs the removal above.
      process.once(signal, () => process.exit(signal === "SIGINT" ? 130 : 143));
    }
  }
  paths.push(path);
}
