// Faults injected into a `wren serve` child through test-only preloads (`--import`), as extra
// environment for spawnWren: the server code itself has no fault hooks.

import { join } from "node:path";
import { pathToFileURL } from "node:url";

const preload = (file: string) => `--import=${pathToFileURL(join(import.meta.dirname, file)).href}`;

/** SIGKILL right after the first record file is stored under `folder` of the data directory. */
export function killAfterRenameInto(folder: string): Record<string, string> {
  return {
    NODE_OPTIONS: preload("kill-after-rename.ts"),
    WREN_TEST_KILL_AFTER_RENAME_INTO: folder,
  };
}

/**
 * Start on `lockText` (the lock a killed server left) rewritten with the new process's own pid:
 * a restart as pid 1 in a container. `"\n"` gives the bare pid an older Wren wrote.
 */
export function lockWithOwnPid(lockText: string): Record<string, string> {
  return { NODE_OPTIONS: preload("reuse-lock-pid.ts"), WREN_TEST_STALE_LOCK: lockText };
}
