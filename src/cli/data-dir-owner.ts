// A command that opens the data directory itself (no server running) writes files as the user
// who runs it. Run as root (or any other user) on a directory that belongs to the server's user,
// it would leave files the server cannot rewrite later: the next start, or the first write to
// one of them, fails with "permission denied". So such a command is refused, with the way to
// run it as the directory's owner. Commands that go through a running server's admin socket
// are not affected (the server writes its own files). There is no override: running the
// command as the owner is always possible (`sudo -u '#<uid>'`), a mixed-owner directory is not.
// `wren serve` only warns: a container running as root on a volume owned by another uid is a
// common, working set-up, as long as nothing else writes there.

import { statSync } from "node:fs";
import { shellQuote } from "./shell-quote.ts";

/** The owner of `dataDir` when it exists and is not this process's user; null otherwise. */
export function otherOwnerOf(dataDir: string): { owner: number; uid: number } | null {
  const uid = process.getuid?.();
  // Windows has no uids; a missing directory is created by (and so belongs to) this process.
  if (uid === undefined) return null;
  try {
    const owner = statSync(dataDir).uid;
    return owner === uid ? null : { owner, uid };
  } catch {
    return null;
  }
}

/** Throws when `dataDir` exists and belongs to another user than this process's. */
export function assertOwnDataDirectory(dataDir: string): void {
  const other = otherOwnerOf(dataDir);
  if (other === null) return;
  const { owner, uid } = other;
  throw new Error(
    [
      `The data directory ${dataDir} belongs to uid ${owner}, but this command runs as uid ${uid}:`,
      "files it wrote there would belong to this user, and the server could not rewrite them.",
      `Run it as the directory's owner, e.g. sudo -u '#${owner}' env WREN_DATA_DIR=${shellQuote(dataDir)} npx wren …`,
    ].join("\n"),
  );
}
