// `node --expose-gc bench/status-scale.ts <statuses> [journaled] [--short] [--snapshot-only]`:
// the scale figures of the json-file backend's statuses (ADR 11, docs/configuration.md "Scale of
// the default backend"): memory per status once loaded, write rate, and start-up from the
// snapshot, after a SIGKILL with `journaled` statuses written since the last snapshot, and with
// no snapshot (every file read). Storage only, no HTTP: the figures are those of the backend.
// The statuses are realistic ones (bench/lib/realistic-statuses.ts says what they hold);
// `--short` writes the short local posts with one or two tags of earlier runs instead.
// `--snapshot-only` writes no status file, only a snapshot of the statuses' summaries, and
// measures one start from it: memory and start-up at a million statuses without a million files.
// Memory is V8's heap plus array buffers (the status table's columns live outside the heap),
// measured once the uri index, built after the load, is complete.

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createIdGenerator } from "../src/domain/ids.ts";
import { makeStatus } from "../src/storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../src/storage/json-file/index.ts";
import { SNAPSHOT_FILE, writeSnapshot } from "../src/storage/json-file/status-snapshot.ts";
import type { JsonFileStatusStore } from "../src/storage/json-file/status-store.ts";
import { type StatusSummary, summarize } from "../src/storage/json-file/status-summary.ts";
import { realisticStatuses } from "./lib/realistic-statuses.ts";

const flags = process.argv.slice(2).filter((arg) => arg.startsWith("--"));
const [countArg, journaledArg = "5000"] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const short = flags.includes("--short");
const snapshotOnly = flags.includes("--snapshot-only");
const count = Number(countArg);
const journaled = Number(journaledArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!(count > 0) || gc === undefined) {
  process.stderr.write(
    "usage: node --expose-gc bench/status-scale.ts <statuses> [journaled] [--short] [--snapshot-only]\n",
  );
  process.exit(2);
}

const AUTHORS = 100;
/** A short local post with a tag, a third with two. */
function shortStatus(id: string, n: number) {
  return makeStatus({
    id,
    accountId: String(1 + (n % AUTHORS)),
    text: `Post number ${n} of the scale bench, #wren`,
    contentHtml: `<p>Post number ${n} of the scale bench, <a href="https://wren.test/tags/wren">#wren</a></p>`,
    tags: n % 3 === 0 ? ["wren", `t${n % 50}`] : ["wren"],
  });
}

const ids = createIdGenerator();
const realistic = realisticStatuses(() => ids.next());
const status = (n: number) => (short ? shortStatus(ids.next(), n) : realistic(n));

const dir = await mkdtemp(join(tmpdir(), "wren-scale-"));
const print = (line: string) => process.stdout.write(`${line}\n`);
const memory = () => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, buffers: arrayBuffers };
};

async function timedOpen(label: string): Promise<void> {
  gc?.();
  const before = memory();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const storage = await openJsonFileStorage(dir);
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpuBefore);
  const cpu = (user + system) / 1e6;
  // The uri index is built in slices after the load: measured once it is whole.
  await storage.statuses.findByUri("https://nowhere.example/");
  gc?.();
  const after = memory();
  const inHeap = after.heap - before.heap;
  const inBuffers = after.buffers - before.buffers;
  const heap = (inHeap + inBuffers) / 2 ** 20;
  const perStatus = (bytes: number) => (bytes / count).toFixed(0);
  const statuses = storage.statuses as JsonFileStatusStore;
  print(
    `${label}: ${seconds.toFixed(2)} s (${cpu.toFixed(2)} s CPU), ${statuses.filesReadAtStart} status files read ` +
      `(${statuses.loadedFrom}), memory +${heap.toFixed(0)} MB = ${perStatus(inHeap + inBuffers)} B/status ` +
      `(${perStatus(inHeap)} in V8's heap, ${perStatus(inBuffers)} in array buffers)`,
  );
  await storage.close();
}

try {
  if (snapshotOnly) {
    const summaries: StatusSummary[] = [];
    for (let n = 0; n < count; n++) summaries.push(summarize(status(n)));
    await writeSnapshot(dir, summaries, 0);
    summaries.length = 0;
    await timedOpen("start from the snapshot (no status files)");
  } else {
    const storage = await openJsonFileStorage(dir);
    const started = performance.now();
    const batch = 256;
    for (let n = 0; n < count; n += batch) {
      const size = Math.min(batch, count - n);
      await Promise.all(
        Array.from({ length: size }, (_, i) => storage.statuses.put(status(n + i))),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    print(`wrote ${count} statuses: ${(count / seconds).toFixed(0)}/s (256 at a time)`);
    await storage.close();

    await timedOpen("start from the snapshot");

    // A writer killed after `journaled` more statuses: the snapshot stays, its journal names them.
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `
        import { openJsonFileStorage } from ${JSON.stringify(new URL("../src/storage/json-file/index.ts", import.meta.url).href)};
        import { makeStatus } from ${JSON.stringify(new URL("../src/storage/contract/fixtures.ts", import.meta.url).href)};
        const storage = await openJsonFileStorage(${JSON.stringify(dir)});
        for (let n = 0; n < ${journaled}; n += 256) {
          await Promise.all(Array.from({ length: Math.min(256, ${journaled} - n) }, (_, i) =>
            storage.statuses.put(makeStatus({ id: String(9e15 + n + i), accountId: "1" }))));
        }
        console.log("done");
        setInterval(() => {}, 1000);
      `,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    for await (const line of createInterface({ input: child.stdout })) if (line === "done") break;
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    await timedOpen(`start after a SIGKILL, ${journaled} written since the snapshot`);

    await rm(join(dir, SNAPSHOT_FILE));
    await timedOpen("start without a snapshot (every file read)");
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
