// The data directory lock. The json-file backend keeps its indexes in memory, so two processes
// writing one directory would silently diverge; `<dir>/wren.lock` holding the owner's pid stops
// the second one. A lock left by a process that no longer exists (a crash, a SIGKILL) is stale
// and is taken over.

import { readFileSync } from "node:fs";
import { readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { PRIVATE_FILE_MODE } from "../../private-modes.ts";
import { ignoreCode, TEMP_SUFFIX } from "./durable-writer.ts";

export const LOCK_FILE = "wren.lock";

export interface DirectoryLock {
  readonly file: string;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/** Takes the lock of `dir` (which must exist), or throws naming the process that holds it. */
export async function acquireLock(dir: string): Promise<DirectoryLock> {
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      // O_EXCL: exactly one process can create the file.
      await writeFile(file, `${process.pid}\n`, { flag: "wx", mode: PRIVATE_FILE_MODE });
      let released = false;
      return {
        file,
        // Once only: a later open in this same process writes the same pid, and must keep it.
        release: async () => {
          if (released) return;
          released = true;
          await releaseLock(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readHolder(file);
    if (holder === "missing") continue; // released meanwhile: try again
    if (holder !== null && isProcessAlive(holder)) {
      const who = holder === process.pid ? `this process (${holder})` : `process ${holder}`;
      throw new Error(
        `The data directory ${dir} is already in use by ${who} (lock file ${file}). ` +
          "Stop that process first; if no Wren process runs with that pid, delete the lock file.",
      );
    }
    await removeStaleLock(file, holder);
  }
  throw new Error(`Could not take the lock file ${file}: other processes keep taking it`);
}

/** Pid of the live process holding the lock of `dir`, or null if none does. */
export function readLockHolder(dir: string): number | null {
  let text: string;
  try {
    text = readFileSync(join(dir, LOCK_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const pid = parsePid(text);
  return pid !== null && isProcessAlive(pid) ? pid : null;
}

/** `process.kill(pid, 0)` checks existence without sending anything; only ESRCH means gone. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function parsePid(text: string): number | null {
  const match = /^\s*(\d+)\s*$/.exec(text);
  const pid = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/**
 * The pid in the lock file; "missing" if the file is gone; null if it holds no pid. A holder
 * creates the file and writes its pid in two steps, so an empty file is re-read a few times
 * before it is judged abandoned (a crash between the two steps).
 */
async function readHolder(file: string): Promise<number | null | "missing"> {
  for (let attempt = 0; ; attempt++) {
    const text = await readFile(file, "utf8").catch(ignoreCode("ENOENT"));
    if (text === undefined) return "missing";
    const pid = parsePid(text);
    if (pid !== null || attempt >= 5) return pid;
    await sleep(20);
  }
}

/**
 * Removes a stale lock. It is moved aside rather than unlinked by name: if another starting
 * process took the stale lock over between our read and now, the file we move is its live lock,
 * and we put it back instead of deleting it.
 */
async function removeStaleLock(file: string, stalePid: number | null): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${Date.now()}${TEMP_SUFFIX}`;
  try {
    await rename(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = parsePid((await readFile(aside, "utf8").catch(ignoreCode("ENOENT"))) ?? "");
  if (moved !== null && moved !== stalePid && isProcessAlive(moved)) {
    await rename(aside, file).catch(ignoreCode("ENOENT"));
    return;
  }
  await rm(aside, { force: true });
}

async function releaseLock(file: string): Promise<void> {
  const text = await readFile(file, "utf8").catch(ignoreCode("ENOENT"));
  if (text !== undefined && parsePid(text) === process.pid) {
    await unlink(file).catch(ignoreCode("ENOENT"));
  }
}
