// Why start-up read every status file instead of the snapshot: an operator who sees a slow
// start deserves the reason in the log. A missing snapshot is the normal state after an
// unclean stop (a crash, SIGKILL, power loss: the snapshot is removed at the first write of a
// run and written again only at a clean shutdown); the other reasons point at a damaged, stale
// or foreign file, which the next clean shutdown replaces.

import { getLogger } from "@logtape/logtape";
import type { SnapshotResult } from "./status-snapshot.ts";

const logger = getLogger(["wren", "storage"]);

type Reason = Exclude<SnapshotResult, { ok: true }>["reason"];

const WHY: Record<Exclude<Reason, "missing">, string> = {
  corrupt: "it is damaged (cut short or its checksum does not match)",
  stale: "it is stale (status folders changed after it was written)",
  version: "it was written by another version of Wren",
};

/** Logs why the snapshot at `path` was not used; `files` is how many status files were read. */
export function logSnapshotUnused(path: string, reason: Reason, files: number): void {
  if (reason === "missing") {
    // A new data directory has neither a snapshot nor statuses: nothing to explain.
    if (files === 0) return;
    logger.info(
      "No status snapshot at {path} (normal after an unclean stop): read all {files} status files",
      { path, files },
    );
    return;
  }
  logger.warn(
    "Status snapshot {path} not used because {why}: read all {files} status files instead",
    { path, why: WHY[reason], files },
  );
}
