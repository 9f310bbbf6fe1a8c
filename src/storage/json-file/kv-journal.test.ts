// The key–value entries json-file keeps as lines of the job journal (ADR 0052): the inbox's
// once-records. No file per entry; durable when set resolves (read back by a reopen and a dump);
// removed, pruned and compacted like the rest; an older Wren's file of such a key still read,
// and replaced by a line when written again. Other families stay files.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { openJsonFileStorage } from "./index.ts";
import { readJobJournals } from "./job-journal.ts";

const done = (id: string, expiresAt: string | null = "2025-01-02T00:00:00.000Z") => ({
  key: ["wren", "inboxDone", `https://remote.example/activities/${id}`, `digest-${id}`],
  value: true,
  expiresAt,
});

describe("json-file key–value entries in the job journal", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-kv-journal-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const kvFiles = async () => (await readdir(join(dir, "kv")).catch(() => [])).sort();
  const journaledKeys = async () =>
    [...(await readJobJournals(dir)).entries.values()].map((e) => e.key[2]).sort();

  it("writes once-records as journal lines, read back after a reopen, other entries as files", async () => {
    const storage = await openJsonFileStorage(dir);
    await storage.kv.set(done("1"));
    await storage.kv.set(done("2"));
    await storage.kv.set({ key: ["wren", "other", "x"], value: 1, expiresAt: null });
    // Durable as set resolves: on disk before any close.
    assert.deepEqual(await journaledKeys(), [
      "https://remote.example/activities/1",
      "https://remote.example/activities/2",
    ]);
    assert.equal((await kvFiles()).length, 1);
    assert.deepEqual(await storage.kv.get(done("1").key), done("1"));
    assert.equal(await storage.kv.delete(done("2").key), true);
    assert.equal(await storage.kv.delete(done("2").key), false);
    assert.equal(
      await storage.kv.compareAndSet(
        true,
        { ...done("1"), value: "again" },
        "2025-01-01T00:00:00.000Z",
      ),
      true,
    );
    assert.deepEqual(
      (await storage.kv.list(["wren", "inboxDone"])).map((e) => e.value),
      ["again"],
    );
    await storage.close();

    const reopened = await openJsonFileStorage(dir);
    try {
      assert.deepEqual(await reopened.kv.get(done("1").key), { ...done("1"), value: "again" });
      assert.equal(await reopened.kv.get(done("2").key), undefined);
      assert.equal((await reopened.kv.list([])).length, 2);
      const dumped = [];
      for await (const record of reopened.dump()) if (record.kind === "kv") dumped.push(record);
      assert.equal(dumped.length, 2);
      // Pruned as any expired entry, and gone from the journal.
      await reopened.kv.set(done("3", "2025-01-05T00:00:00.000Z"));
      assert.equal(await reopened.kv.pruneExpired("2025-01-03T00:00:00.000Z"), 1);
      assert.equal(await reopened.kv.get(done("1").key), undefined);
    } finally {
      await reopened.close();
    }
    assert.deepEqual(await journaledKeys(), ["https://remote.example/activities/3"]);
  });

  it("reads an older Wren's file of a journaled family and replaces it by a line", async () => {
    const first = await openJsonFileStorage(dir);
    await first.kv.set({ key: ["wren", "other", "x"], value: 1, expiresAt: null });
    await first.close();
    // The file an older Wren wrote for a once-record: named by its key's hash, like the one above.
    const [file] = await kvFiles();
    await mkdir(join(dir, "kv"), { recursive: true });
    const hash = createHash("sha256")
      .update(JSON.stringify(done("1").key))
      .digest("hex");
    await writeFile(join(dir, "kv", `${hash}.json`), JSON.stringify(done("1")));

    const storage = await openJsonFileStorage(dir);
    try {
      assert.deepEqual(await storage.kv.get(done("1").key), done("1"));
      await storage.kv.set({ ...done("1"), value: 2 });
      assert.deepEqual(await kvFiles(), [file]);
      assert.deepEqual(await storage.kv.get(done("1").key), { ...done("1"), value: 2 });
      assert.equal((await storage.kv.list(["wren", "inboxDone"])).length, 1);
    } finally {
      await storage.close();
    }
  });
});
