// The json-file storage backend (the default): one JSON file per record under a data directory,
// indexes in memory, crash-safe group-committed writes, and a lock file against a second process.

import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import type { Storage } from "../ports.ts";
import { openAccountStore } from "./account-store.ts";
import { openAppStore } from "./app-store.ts";
import { openAuthorizationCodeStore } from "./authorization-code-store.ts";
import { DurableWriter, removeLeftoverTempFiles } from "./durable-writer.ts";
import { acquireLock } from "./lock.ts";
import { openStatusStore } from "./status-store.ts";
import { openTokenStore } from "./token-store.ts";
import { openUserStore } from "./user-store.ts";

export { readLockHolder } from "./lock.ts";

/** Opens (creating if needed) the data directory `dir`; throws if another process holds it. */
export async function openJsonFileStorage(dir: string): Promise<Storage> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const lock = await acquireLock(root);
  try {
    // Only after taking the lock: temporary files of a live writer must not be swept.
    await removeLeftoverTempFiles(root);
    const writer = new DurableWriter();
    const [accounts, users, apps, tokens, authorizationCodes, statuses] = await Promise.all([
      openAccountStore(root, writer),
      openUserStore(root, writer),
      openAppStore(root, writer),
      openTokenStore(root, writer),
      openAuthorizationCodeStore(root, writer),
      openStatusStore(root, writer),
    ]);
    let closing: Promise<void> | undefined;
    return {
      accounts,
      users,
      apps,
      tokens,
      authorizationCodes,
      statuses,
      close() {
        closing ??= (async () => {
          try {
            await writer.close();
          } finally {
            await lock.release();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
