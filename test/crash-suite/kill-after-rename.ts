// Test-only fault, loaded into a `wren serve` child with `--import` (see faults.ts): the process
// SIGKILLs itself right after the first file is renamed into place under one folder of its data
// directory (WREN_TEST_KILL_AFTER_RENAME_INTO, e.g. "statuses"). Every durable write ends with
// that rename (src/storage/json-file/durable-writer.ts), so this lands a crash exactly between
// one record and the next, the moment a random kill hits only now and then. Nothing in src/
// knows of it.

import fsPromises from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import { join, resolve, sep } from "node:path";

const folder = process.env.WREN_TEST_KILL_AFTER_RENAME_INTO;
const dataDir = process.env.WREN_DATA_DIR;

if (folder && dataDir) {
  const under = join(resolve(dataDir), folder) + sep;
  const rename = fsPromises.rename;
  fsPromises.rename = async (from, to) => {
    await rename(from, to);
    if (resolve(String(to)).startsWith(under)) process.kill(process.pid, "SIGKILL");
  };
  // `import { rename } from "node:fs/promises"` in the server now binds the wrapper.
  syncBuiltinESMExports();
}
