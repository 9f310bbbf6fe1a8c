// Every journal file the json-file backend opens is closed by the storage's close, also on the
// paths that write no snapshot (`wren doctor`) or fail before it (a full disk). A FileHandle left
// open outlives the storage until the garbage collector closes it, with Node's warning "Closing
// file descriptor N on garbage collection" (seen in CI) and, in a long-running process, one
// descriptor fewer each time. The open files are read from /proc/self/fd (Linux, as CI).

import assert from "node:assert/strict";
import { readdirSync, readlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { DurableWriter } from "./durable-writer.ts";
import { openJsonFileStorage } from "./index.ts";
import { JournalFile } from "./status-journal.ts";
import { openStatusStore } from "./status-store.ts";

/** The files under `dir` this process holds open. */
function openFilesUnder(dir: string): string[] {
  const paths: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${dir}/`)) paths.push(target);
    } catch {
      // Closed since the listing (the listing's own descriptor among them).
    }
  }
  return paths;
}

describe("json-file journal descriptors", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-descriptors-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("closing the status writes closes the journal, with no snapshot after", async () => {
    const writer = new DurableWriter();
    const store = await openStatusStore(dir, writer, {});
    await store.put(makeStatus({ id: "10", accountId: "1" }));
    assert.deepEqual(openFilesUnder(dir), [join(dir, "statuses.journal.1")]);
    // As `wren doctor`'s close: no checkpoint() follows.
    await store.closeWrites();
    await writer.close();
    assert.deepEqual(openFilesUnder(dir), []);
  });

  it("a storage opened for an inspection (no snapshot at its close) closes its journals", async () => {
    const storage = await openJsonFileStorage(dir, { inspect: { damaged: async () => {} } });
    await storage.statuses.put(makeStatus({ id: "10", accountId: "1" }));
    assert.deepEqual(openFilesUnder(dir), [join(dir, "statuses.journal.1")]);
    await storage.close();
    assert.deepEqual(openFilesUnder(dir), []);
  });

  it("a closed status journal refuses appends instead of opening its file again", async () => {
    const journal = new JournalFile(dir, 1);
    await journal.append("first");
    await journal.close();
    await assert.rejects(journal.append("late"), /closed/);
    assert.deepEqual(openFilesUnder(dir), []);
  });
});
