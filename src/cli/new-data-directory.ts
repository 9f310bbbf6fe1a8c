// A one-off command (account create, token create…) run without the running server's
// WREN_DATA_DIR opens `./data` of the folder it runs in: the account lands in a new directory
// that the server never reads, and the operator only notices when signing in fails. Creating a
// directory is still allowed (tests and first set-ups run commands before any server exists), but
// it is said plainly on stderr, with what to do instead.

import { readdirSync } from "node:fs";

/** Whether `dir` is missing or holds nothing, i.e. a command opening it starts from scratch. */
export function isNewDataDirectory(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    // Unreadable or not a folder: opening it fails with its own clear error.
    return false;
  }
}

/** The warning printed after a command created the new, empty data directory `dir`. */
export function newDataDirectoryWarning(dir: string): string {
  return [
    `wren: warning: ${dir} is a new empty data directory, created by this command.`,
    "  A Wren server running with another data directory will not see anything this command",
    "  does. If a server is running, give the command that server's directory (its start banner",
    "  shows it as `data directory:`), e.g.",
    "    WREN_DATA_DIR=/path/to/the/server/data npx wren account create …",
    "",
  ].join("\n");
}
