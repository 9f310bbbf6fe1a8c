// Test-only fault, loaded into a `wren serve` child with `--import` (see faults.ts): the process
// SIGKILLs itself right after the first record under one folder of its data directory is stored
// (WREN_TEST_KILL_AFTER_RENAME_INTO, e.g. "idempotency"). Every durable write of the durable
// writer ends with the rename of its file into place (src/storage/json-file/durable-writer.ts),
// so this lands a crash exactly between one record and the next, the moment a random kill hits
// only now and then. A status is stored once its status journal line is fdatasynced, and its file
// is written after the answer (ADRs 0065, 0084): for "statuses" the kill lands right after that
// journal's first fdatasync. Nothing in src/ knows of it.

import fsPromises from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { basename, join, resolve, sep } from "node:path";
import { isMainThread } from "node:worker_threads";

const folder = process.env.WREN_TEST_KILL_AFTER_RENAME_INTO;
const dataDir = process.env.WREN_DATA_DIR;

// Preloads run in the server's threads too (the status filer's): only its main thread is hooked.
if (folder && dataDir && isMainThread) {
  const kill = () => process.kill(process.pid, "SIGKILL");
  if (folder === "statuses") {
    const open = fsPromises.open;
    fsPromises.open = async (...args: Parameters<typeof open>) => {
      const handle = await open(...args);
      if (basename(String(args[0])).startsWith("statuses.journal.")) {
        const datasync = handle.datasync.bind(handle);
        handle.datasync = async () => {
          await datasync();
          kill();
        };
      }
      return handle;
    };
  } else {
    const under = join(resolve(dataDir), folder) + sep;
    const rename = fsPromises.rename;
    fsPromises.rename = async (from, to) => {
      await rename(from, to);
      if (resolve(String(to)).startsWith(under)) kill();
    };
  }
  // `import { open, rename } from "node:fs/promises"` in the server now binds the wrappers.
  syncBuiltinESMExports();
}
