// fsync of a directory: makes the names created, renamed or removed in it durable.

import { open } from "node:fs/promises";

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
