// `node bench/full-read-stall.ts <statuses> [src-dir]`: what a start that reads every status file
// (no usable snapshot) costs the event loop afterwards (issue 15): the longest stall while the
// first snapshot is written in the background, and how long the first public timeline page
// takes (its id list sorted then, if it was not built in order). `src-dir` points at another
// checkout's src/ to compare.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [countArg, srcArg] = process.argv.slice(2);
const count = Number(countArg);
if (!(count > 0)) {
  process.stderr.write("usage: node bench/full-read-stall.ts <statuses> [src-dir]\n");
  process.exit(2);
}
const src = pathToFileURL(`${resolve(srcArg ?? new URL("../src", import.meta.url).pathname)}/`);
const { createIdGenerator } = await import(new URL("domain/ids.ts", src).href);
const { makeStatus } = await import(new URL("storage/contract/fixtures.ts", src).href);
const { openJsonFileStorage } = await import(new URL("storage/json-file/index.ts", src).href);
const { SNAPSHOT_FILE } = await import(new URL("storage/json-file/status-snapshot.ts", src).href);

const print = (line: string) => process.stdout.write(`${line}\n`);
const dir = await mkdtemp(join(tmpdir(), "wren-full-read-"));
try {
  const ids = createIdGenerator();
  let storage = await openJsonFileStorage(dir);
  for (let n = 0; n < count; n += 256) {
    await Promise.all(
      Array.from({ length: Math.min(256, count - n) }, (_, i) =>
        storage.statuses.put(
          makeStatus({ id: ids.next(), accountId: String(1 + ((n + i) % 100)), tags: [] }),
        ),
      ),
    );
  }
  await storage.close();
  await rm(join(dir, SNAPSHOT_FILE));

  const started = performance.now();
  storage = await openJsonFileStorage(dir);
  print(`${count} statuses, every file read: open ${(performance.now() - started).toFixed(0)} ms`);
  // From here on the server would be serving: a timer ticking every millisecond measures how
  // long the loop was away while the background snapshot is written and a timeline is read.
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const reading = performance.now();
  await storage.statuses.listPublicEntries({ limit: 20 }, { origin: "all" });
  const firstPage = performance.now() - reading;
  // The snapshot written after the full read; closing waits for it.
  await new Promise((r) => setTimeout(r, 100));
  await storage.close();
  clearInterval(timer);
  print(
    `first public page ${firstPage.toFixed(0)} ms; longest event-loop stall until the close ${longest.toFixed(0)} ms`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
