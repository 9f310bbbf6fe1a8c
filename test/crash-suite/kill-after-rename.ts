// Test-only fault, loaded into a `wren serve` child with `--import` (see faults.ts): the process
// SIGKILLs itself right after the first file is renamed into place under one folder of its data
// directory (WREN_TEST_KILL_AFTER_RENAME_INTO, e.g. "statuses"). Every durable write ends with
// that rename (src/storage/json-file/durable-writer.ts), so this lands a crash exactly between
// one record and the next, the moment a random kill hits only now and then. A new status's file
// is written in place instead (DurableWriter.stageNew, ADR 0070): it ends when the file, opened
// for writing under the folder, is closed. Nothing in src/ knows of it.

import fs from "node:fs";
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
  // Files written in place: the descriptors opened for writing under the folder.
  const writing = new Set<number>();
  const open = fs.open as (...args: unknown[]) => void;
  fs.open = ((...args: unknown[]) => {
    const [path, flags] = args;
    const done = args.pop() as (error: NodeJS.ErrnoException | null, fd?: number) => void;
    const watched = flags === "w" && resolve(String(path)).startsWith(under);
    open(...args, (error: NodeJS.ErrnoException | null, fd?: number) => {
      if (!error && watched && fd !== undefined) writing.add(fd);
      done(error, fd);
    });
  }) as typeof fs.open;
  const closeSync = fs.closeSync;
  fs.closeSync = (fd: number) => {
    closeSync(fd);
    if (writing.has(fd)) process.kill(process.pid, "SIGKILL");
  };
  // `import { rename } from "node:fs/promises"` (and `open`, `closeSync` from "node:fs") in the
  // server now bind the wrappers.
  syncBuiltinESMExports();
}
