// Crash safety of the job journal (ADR 0044): a writer puts statuses around their jobs and
// removes half of the jobs, with a journal compacted every 50 lines, and is SIGKILLed at a
// random moment, several times over one directory. After each kill: no status is on disk
// without its job (unless the job's removal was acknowledged), and every acknowledged job whose
// removal was not acknowledged is back.

import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ignoreCode } from "./durable-writer.ts";
import { openJsonFileStorage } from "./index.ts";
import { jobJournalNumbers } from "./job-journal.ts";
import { runUntilKilled } from "./testing/child.ts";

const WRITER = fileURLToPath(new URL("testing/job-crash-writer.ts", import.meta.url));
const CYCLES = 5;

interface Acks {
  put: Set<string>;
  removed: Set<string>;
}

/** Runs the writer until it has acknowledged about `target` steps, then SIGKILLs it. */
function runAndKill(dir: string, target: number, acks: Acks): Promise<void> {
  return runUntilKilled(WRITER, [dir], target, (line) => {
    const [kind, id = ""] = line.split(" ");
    if (kind === "put") acks.put.add(id);
    else if (kind === "removed") acks.removed.add(id);
  });
}

/** The ids of the status files on disk. */
async function statusFiles(dir: string): Promise<string[]> {
  // None yet when the kill came before the first file was written (ADR 0084).
  const entries = await readdir(join(dir, "statuses"), {
    recursive: true,
    withFileTypes: true,
  }).catch(ignoreCode("ENOENT"));
  if (entries === undefined) return [];
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".json"))
    .map((e) => e.name.slice(0, -5));
}

describe("job journal crash safety", { timeout: 120_000 }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-job-crash-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`never leaves a change without its job across ${CYCLES} SIGKILLs`, async () => {
    const acks: Acks = { put: new Set(), removed: new Set() };
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      await runAndKill(dir, 100 + Math.floor(Math.random() * 600), acks);
      const onDisk = await statusFiles(dir);
      const storage = await openJsonFileStorage(dir);
      try {
        // The start compacted whatever the kill left into one journal.
        assert.equal((await jobJournalNumbers(dir)).length, 1);
        for (const id of onDisk) {
          if (acks.removed.has(id)) continue;
          assert.ok(await storage.jobs.get(id), `status ${id} is on disk without its job`);
        }
        for (const id of acks.put) {
          if (acks.removed.has(id)) continue;
          assert.ok(await storage.jobs.get(id), `acknowledged job ${id} is missing`);
          assert.ok(await storage.statuses.get(id), `acknowledged status ${id} is missing`);
        }
      } finally {
        await storage.close();
      }
    }
    assert.ok(acks.removed.size > 0 && acks.put.size > acks.removed.size);
  });
});
