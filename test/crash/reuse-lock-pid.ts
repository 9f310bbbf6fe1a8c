// Test-only preload for a `wren serve` child (`--import`): makes the data directory's lock name
// THIS process's pid before the server starts, as after a restart in a container without an init
// (the killed server was pid 1, and so is the next one). WREN_TEST_LOCK_PID_REUSE:
// - "killed": the lock the killed server left, its pid replaced by ours (same boot, the earlier
//   process's start time): what a restarted pid 1 finds;
// - "bare": our pid alone, as an older Wren wrote it.
// Nothing in src/ knows of it.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const mode = process.env.WREN_TEST_LOCK_PID_REUSE;
const dataDir = process.env.WREN_DATA_DIR;

if (dataDir && (mode === "killed" || mode === "bare")) {
  const file = join(dataDir, "wren.lock");
  if (mode === "bare") writeFileSync(file, `${process.pid}\n`);
  else {
    const [, ...rest] = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, [String(process.pid), ...rest].join("\n"));
  }
}
