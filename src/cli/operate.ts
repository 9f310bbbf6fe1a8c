// Runs an admin operation for a command, with one writer per data directory: if a live server
// holds the directory's lock, the operation goes through its admin socket; otherwise the command
// opens the storage itself (taking the lock), runs the service and closes it again.

import { setTimeout as sleep } from "node:timers/promises";
import { callAdmin } from "../admin/client.ts";
import type { LocalHooks } from "../admin/operations.ts";
import { adminSocketPath } from "../admin/protocol.ts";
import type { Config } from "../config/schema.ts";
import { readLockHolder } from "../storage/json-file/lock.ts";
import type { Storage } from "../storage/ports.ts";
import { assertOwnDataDirectory } from "./data-dir-owner.ts";
import { isNewDataDirectory, newDataDirectoryWarning } from "./new-data-directory.ts";

/** How long to wait for the admin socket of a server that holds the lock but is still starting. */
const SOCKET_WAIT_MS = 10_000;

/** `hooks` reach the operation only when it runs in this process (see LocalHooks). */
export async function operate(
  config: Config,
  op: string,
  args: Record<string, unknown>,
  hooks?: LocalHooks,
): Promise<unknown> {
  const holder = lockHolder(config);
  return holder === null ? direct(config, op, args, hooks) : viaServer(config, holder, op, args);
}

/** Whether a live server holds the data directory (operations then run in it). */
export function serverHolds(config: Config): boolean {
  return lockHolder(config) !== null;
}

async function direct(
  config: Config,
  op: string,
  args: Record<string, unknown>,
  hooks?: LocalHooks,
): Promise<unknown> {
  // Loaded on demand, and only the services' wiring: the HTTP layer is never needed here, and
  // Fedify only by the operations that reach other servers (ADR 0053).
  const [{ createServiceContext }, { openStorage }, admin] = await Promise.all([
    import("../wiring/service-context.ts"),
    import("../wiring/storage.ts"),
    import("../admin/operations.ts"),
  ]);
  const fresh = config.storage === "json-file" && isNewDataDirectory(config.dataDir);
  if (config.storage === "json-file") assertOwnDataDirectory(config.dataDir);
  let storage: Storage;
  try {
    storage = await openStorage(config);
  } catch (error) {
    // A server may have started between our look at the lock and our attempt to take it.
    const late = lockHolder(config);
    if (late !== null) return viaServer(config, late, op, args);
    throw error;
  }
  if (fresh) process.stderr.write(newDataDirectoryWarning(config.dataDir));
  try {
    const ctx = createServiceContext(config, storage);
    if (await admin.needsFederation(op)) {
      const { attachFederation } = await import("../wiring/federation.ts");
      attachFederation(config, ctx);
    }
    return await admin.runAdminOperation(ctx, op, args, hooks);
  } finally {
    await storage.close();
  }
}

function lockHolder(config: Config): number | null {
  // Only the json-file backend has a single-writer lock; PostgreSQL takes many writers.
  return config.storage === "json-file" ? readLockHolder(config.dataDir) : null;
}

async function viaServer(
  config: Config,
  holder: number,
  op: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const path = adminSocketPath(config.dataDir);
  const deadline = Date.now() + SOCKET_WAIT_MS;
  for (;;) {
    try {
      return await callAdmin(path, op, args);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const unreachable = code === "ENOENT" || code === "ECONNREFUSED";
      if (!unreachable) throw error;
      const now = lockHolder(config);
      // The holder has exited meanwhile (a command that was running directly): our turn.
      if (now === null) return direct(config, op, args);
      // The holder may still be starting (lock taken, socket not yet open): wait a little.
      if (now === holder && Date.now() < deadline) {
        await sleep(100);
        continue;
      }
      throw new Error(
        `The data directory ${config.dataDir} is in use by process ${holder}, but it does not ` +
          `answer on its admin socket ${path}. If it is a Wren server, wait until it has started ` +
          "and try again; otherwise wait for that process to finish.",
      );
    }
  }
}
