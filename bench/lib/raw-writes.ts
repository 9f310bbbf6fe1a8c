// The storage limit for write scenarios: how many crash-safe file writes of the same bytes the
// disk takes per second, written the way the json-file backend must (temporary file, fsync,
// rename, fsync of the directory), from `concurrency` writers at once.

import { mkdir, mkdtemp, open, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeAtExit } from "./removal.ts";

async function durableWrite(dir: string, name: string, bytes: Buffer): Promise<void> {
  const tmp = join(dir, `${name}.tmp`);
  const file = await open(tmp, "w");
  try {
    await file.writeFile(bytes);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, join(dir, name));
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function rawDurableWriteRate(
  bytes: Buffer,
  options: { seconds: number; concurrency: number },
): Promise<number> {
  const root = await mkdtemp(join(tmpdir(), "wren-bench-raw-"));
  removeAtExit(root);
  const dir = join(root, "records");
  await mkdir(dir);
  const deadline = performance.now() + options.seconds * 1000;
  let done = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (performance.now() < deadline) {
        await durableWrite(dir, `${next++}.json`, bytes);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return done / elapsed;
}
