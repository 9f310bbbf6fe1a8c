// Faults injected into a clustered `wren serve` child through test-only preloads, as extra
// environment (see test/crash-suite/faults.ts for the json-file ones).

import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** SIGKILL right after the process's first status write is committed (PostgreSQL). */
export function killAfterStatusPut(): Record<string, string> {
  const preload = pathToFileURL(join(import.meta.dirname, "kill-after-status-put.ts")).href;
  return { NODE_OPTIONS: `--import=${preload}` };
}
