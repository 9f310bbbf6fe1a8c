// Test-only preload for a `wren serve` child (`--import`, see faults.ts): before the server
// starts, writes the data directory's lock from WREN_TEST_STALE_LOCK with its first line (the
// pid) replaced by THIS process's pid. Given the lock a killed server left, that is what a
// restarted pid 1 finds in a container without an init: its own pid, the same boot, the earlier
// process's start time. Given one empty line, it is the bare pid an older Wren wrote. Nothing in
// src/ knows of it.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";

const template = process.env.WREN_TEST_STALE_LOCK;
const dataDir = process.env.WREN_DATA_DIR;

// Preloads run in the server's threads too (the status filer's): only the process's own start.
if (template !== undefined && dataDir && isMainThread) {
  const [, ...rest] = template.split("\n");
  writeFileSync(join(dataDir, "wren.lock"), [String(process.pid), ...rest].join("\n"));
}
