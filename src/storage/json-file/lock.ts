// The data directory lock. The json-file backend keeps its indexes in memory, so two processes
// writing one directory would silently diverge; `<dir>/wren.lock` naming the owner stops the
// second one. A lock left by a process that is no longer running (a crash, a SIGKILL, the OOM
// killer) is stale and is taken over. The owner is named by pid, start time and boot id
// (process-identity.ts), so a later process that got the same pid (pid 1 in a container without
// an init) is not mistaken for the dead one.

import { readFileSync } from "node:fs";
import { readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { getLogger } from "@logtape/logtape";
import { PRIVATE_FILE_MODE } from "../../private-modes.ts";
import { ignoreCode, TEMP_SUFFIX } from "./durable-writer.ts";
import {
  formatIdentity,
  isRunning,
  ownIdentity,
  type ProcessIdentity,
  parseIdentity,
} from "./process-identity.ts";

const logger = getLogger(["wren", "storage"]);

export const LOCK_FILE = "wren.lock";

export interface DirectoryLock {
  readonly file: string;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Lock files this process holds. A lock naming our own pid that is not among them was left by an
 * earlier process that had our pid: the same pid cannot belong to two live processes.
 */
const heldHere = new Set<string>();

function lockFileOf(dir: string): string {
  return join(resolve(dir), LOCK_FILE);
}

/** Whether the process named in `file` still holds it. */
function isHeld(file: string, holder: ProcessIdentity): boolean {
  return holder.pid === process.pid ? heldHere.has(file) : isRunning(holder);
}

/** Takes the lock of `dir` (which must exist), or throws naming the process that holds it. */
export async function acquireLock(dir: string): Promise<DirectoryLock> {
  const file = lockFileOf(dir);
  const mine = formatIdentity(ownIdentity());
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // O_EXCL: exactly one process can create the file.
      await writeFile(file, mine, { flag: "wx", mode: PRIVATE_FILE_MODE });
      heldHere.add(file);
      let released = false;
      return {
        file,
        // Once only: a later open in this same process writes the same identity, and must keep it.
        release: async () => {
          if (released) return;
          released = true;
          heldHere.delete(file);
          await releaseLock(file, mine);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readHolder(file);
    if (holder === "missing") continue; // released meanwhile: try again
    if (holder.identity !== null && isHeld(file, holder.identity)) {
      const pid = holder.identity.pid;
      const who = pid === process.pid ? `this process (${pid})` : `process ${pid}`;
      throw new Error(
        `The data directory ${dir} is already in use by ${who} (lock file ${file}). ` +
          "Stop that process first; if no Wren process runs with that pid, delete the lock file.",
      );
    }
    if (await removeStaleLock(file, holder.text)) {
      logger.warn(
        "Took over the lock file {file} left by process {pid}, which is no longer running " +
          "(it stopped without closing: a crash, a kill or the OOM killer).",
        { file, pid: holder.identity?.pid ?? "unknown" },
      );
    }
  }
  throw new Error(`Could not take the lock file ${file}: other processes keep taking it`);
}

/** Pid of the live process holding the lock of `dir`, or null if none does. */
export function readLockHolder(dir: string): number | null {
  const file = lockFileOf(dir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const holder = parseIdentity(text);
  return holder !== null && isHeld(file, holder) ? holder.pid : null;
}

/**
 * The lock file's text and the process it names ("missing" if the file is gone; identity null if
 * it names none). A holder creates the file and writes it in two steps, so an empty file is
 * re-read a few times before it is judged abandoned (a crash between the two steps).
 */
async function readHolder(
  file: string,
): Promise<{ text: string; identity: ProcessIdentity | null } | "missing"> {
  for (let attempt = 0; ; attempt++) {
    const text = await readFile(file, "utf8").catch(ignoreCode("ENOENT"));
    if (text === undefined) return "missing";
    const identity = parseIdentity(text);
    if (identity !== null || attempt >= 5) return { text, identity };
    await sleep(20);
  }
}

/**
 * Removes a stale lock; false if it was gone or turned out live. It is moved aside rather than
 * unlinked by name: if another starting process took the stale lock over between our read and
 * now, the file we move is its live lock, and we put it back instead of deleting it.
 */
async function removeStaleLock(file: string, staleText: string): Promise<boolean> {
  const aside = `${file}.stale-${process.pid}-${Date.now()}${TEMP_SUFFIX}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  const movedText = (await readFile(aside, "utf8").catch(ignoreCode("ENOENT"))) ?? "";
  const moved = parseIdentity(movedText);
  if (movedText !== staleText && moved !== null && isHeld(file, moved)) {
    await rename(aside, file).catch(ignoreCode("ENOENT"));
    return false;
  }
  await rm(aside, { force: true });
  return true;
}

/** Removes the lock file if it still holds what this process wrote. */
async function releaseLock(file: string, mine: string): Promise<void> {
  const text = await readFile(file, "utf8").catch(ignoreCode("ENOENT"));
  if (text === mine) await unlink(file).catch(ignoreCode("ENOENT"));
}
