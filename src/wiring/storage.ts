// Opens the configured storage backend. Each backend's module is loaded only when chosen: a
// `wren` command on json-file need not load the PostgreSQL driver and its stores, nor the other
// way round (ADR 0053).

import type { Config } from "../config/schema.ts";
import type { WriteFaults } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";

export interface OpenStorageOptions {
  /** Tests only: makes the json-file storage fail like a full or read-only disk. */
  writeFaults?: WriteFaults;
}

export async function openStorage(
  config: Config,
  options: OpenStorageOptions = {},
): Promise<Storage> {
  if (config.storage === "postgres") {
    const { openPostgresStorage } = await import("../storage/postgres/index.ts");
    // The schema refuses postgres without a URL, so the fallback is never used.
    return openPostgresStorage({ url: config.databaseUrl ?? "", poolMax: config.databasePoolMax });
  }
  const { openJsonFileStorage } = await import("../storage/json-file/index.ts");
  return openJsonFileStorage(config.dataDir, { writeFaults: options.writeFaults });
}
