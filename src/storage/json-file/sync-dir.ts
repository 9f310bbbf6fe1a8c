// fsync of a directory: makes the names created, renamed or removed in it durable.

import { type FileHandle, open } from "node:fs/promises";
import { PRIVATE_FILE_MODE } from "../../private-modes.ts";

export async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals renames itself.
  if (process.platform === "win32") return;
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Opens `path` (in `dir`) for appending, creating it durably: its name is in `dir`'s fsync. */
export async function openForAppend(dir: string, path: string): Promise<FileHandle> {
  const handle = await open(path, "a", PRIVATE_FILE_MODE);
  try {
    await syncDir(dir);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
