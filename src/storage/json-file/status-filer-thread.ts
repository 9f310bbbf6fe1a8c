// The thread that writes status files for StatusFiler (ADR 0084): each batch's files, one after
// another, each as a temporary file in `statuses/` then a rename into its author's folder, with
// no fsync (the status journal already holds every file's bytes durably; a snapshot syncs the
// files before it lets a journal go). Synchronous calls on a thread of its own: the event loop
// pays one message per batch instead of a thread-pool hand-off per open, write, close and rename,
// and one writer creating files in turn does not contend for the folder's lock as four did.

import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parentPort } from "node:worker_threads";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../private-modes.ts";

export interface FilingRequest {
  /** Matches the reply to its request (every storage of the process shares the thread). */
  id: number;
  /** The `statuses/` folder: temporary files go here, files under it (`file` is relative). */
  dir: string;
  files: readonly { file: string; json: string; temp: string }[];
}

export interface FilingReply {
  id: number;
  /** Per file, in order: null once renamed into place, or why it was not. */
  failures: ({ code: string | undefined; message: string } | null)[];
  /** Folders made for these files: their parents' entries need an fsync before a snapshot. */
  madeFolders: string[];
}

const knownFolders = new Set<string>();

function fileAll(request: FilingRequest): FilingReply {
  const madeFolders: string[] = [];
  const fileOne = (target: string, json: string, temp: string) => {
    const folder = dirname(target);
    if (!knownFolders.has(folder)) {
      if (mkdirSync(folder, { recursive: true, mode: PRIVATE_DIR_MODE }) !== undefined) {
        madeFolders.push(folder);
      }
      knownFolders.add(folder);
    }
    writeFileSync(temp, json, { flag: "wx", mode: PRIVATE_FILE_MODE });
    renameSync(temp, target);
  };
  const failures = request.files.map(({ file, json, temp }) => {
    const target = join(request.dir, file);
    try {
      try {
        fileOne(target, json, temp);
      } catch (error) {
        // A folder known here may have been removed since (an account's statuses purged).
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        rmSync(temp, { force: true });
        knownFolders.delete(dirname(target));
        fileOne(target, json, temp);
      }
      return null;
    } catch (error) {
      rmSync(temp, { force: true });
      const { code, message } = error as NodeJS.ErrnoException;
      return { code, message };
    }
  });
  return { id: request.id, failures, madeFolders };
}

parentPort?.on("message", (request: FilingRequest) => {
  parentPort?.postMessage(fileAll(request));
});
