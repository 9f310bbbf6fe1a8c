import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { StorageUnavailableError } from "../../domain/errors.ts";
import { DurableWriter, removeLeftoverTempFiles, TEMP_SUFFIX } from "./durable-writer.ts";
import { WriteFaults } from "./write-faults.ts";

describe("DurableWriter", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-writer-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const read = (path: string) => readFile(join(dir, path), "utf8");

  it("commits concurrent writes as one group: one fsync per file, one per directory", async () => {
    const writer = new DurableWriter();
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => writer.write(join(dir, "a", `${i}.json`), `${i}`)),
    );
    assert.equal(await read("a/42.json"), "42");
    assert.equal((await readdir(join(dir, "a"))).length, 100, "no temp files left");
    assert.equal(writer.stats.batches, 1);
    assert.equal(writer.stats.fileSyncs, 100);
    // The new folder "a", and its parent for the new entry "a".
    if (process.platform !== "win32") assert.equal(writer.stats.dirSyncs, 2);
  });

  it("queues writes made during a commit into the next batch", async () => {
    const writer = new DurableWriter();
    const first = Array.from({ length: 10 }, (_, i) => writer.write(join(dir, `a${i}`), "a"));
    await nextTurn(); // the first batch has started and is waiting on the disk
    const second = Array.from({ length: 10 }, (_, i) => writer.write(join(dir, `b${i}`), "b"));
    await Promise.all([...first, ...second]);
    assert.equal(writer.stats.batches, 2);
    assert.equal(await read("b9"), "b");
  });

  it("applies writes to one path in call order, coalescing them within a batch", async () => {
    const writer = new DurableWriter();
    const path = join(dir, "same.json");
    await Promise.all(Array.from({ length: 50 }, (_, i) => writer.write(path, `v${i}`)));
    assert.equal(await read("same.json"), "v49");
    assert.equal(writer.stats.fileSyncs, 1, "superseded contents are never written");

    const a = writer.write(path, "x");
    await nextTurn();
    const b = writer.write(path, "y");
    const c = writer.remove(path);
    const d = writer.write(path, "z");
    await Promise.all([a, b, c, d]);
    assert.equal(await read("same.json"), "z");

    await Promise.all([writer.write(path, "w"), writer.remove(path)]);
    await assert.rejects(read("same.json"), { code: "ENOENT" });
  });

  it("removes files, a missing one included", async () => {
    const writer = new DurableWriter();
    await writer.write(join(dir, "gone.json"), "{}");
    await writer.remove(join(dir, "gone.json"));
    await writer.remove(join(dir, "never.json"));
    assert.deepEqual(await readdir(dir), []);
  });

  it("fails only the writes that fail", async () => {
    const writer = new DurableWriter();
    await writeFile(join(dir, "plain-file"), "");
    const bad = writer.write(join(dir, "plain-file", "x.json"), "{}");
    const good = writer.write(join(dir, "ok.json"), "{}");
    await assert.rejects(bad);
    await good;
    assert.equal(await read("ok.json"), "{}");
    assert.deepEqual((await readdir(dir)).sort(), ["ok.json", "plain-file"]);
  });

  it("reports a full or read-only disk as the storage's error and changes nothing", async () => {
    const faults = new WriteFaults();
    const writer = new DurableWriter({ faults });
    await writer.write(join(dir, "kept"), "old");
    faults.failWith("ENOSPC");
    await assert.rejects(writer.write(join(dir, "kept"), "new"), (error: unknown) => {
      assert.ok(error instanceof StorageUnavailableError);
      assert.equal(error.code, "ENOSPC");
      assert.equal(error.path, join(dir, "kept"));
      return true;
    });
    // A full disk still lets files go; a read-only one does not.
    await writer.remove(join(dir, "kept"));
    faults.clear();
    await writer.write(join(dir, "kept"), "old");
    faults.failWith("EROFS");
    await assert.rejects(writer.remove(join(dir, "kept")), StorageUnavailableError);
    assert.equal(await read("kept"), "old");
    assert.deepEqual(await readdir(dir), ["kept"], "no temporary file left");
    faults.clear();
    await writer.write(join(dir, "kept"), "new");
    assert.equal(await read("kept"), "new");
  });

  it("acknowledges a write whose directory fsync fails after the rename: it is in place", async () => {
    // Answering an error here would leave a refused write applied on disk while the store's
    // memory kept the old record.
    const faults = new WriteFaults();
    const writer = new DurableWriter({ faults });
    await writer.write(join(dir, "kept"), "old");
    await writer.write(join(dir, "gone"), "old");
    faults.failDirSyncWith("EIO");
    await writer.write(join(dir, "kept"), "new");
    await writer.remove(join(dir, "gone"));
    await writer.write(join(dir, "sub", "fresh"), "new");
    assert.ok(faults.refused >= 3, "the fault struck every batch");
    assert.equal(await read("kept"), "new");
    assert.equal(await read("sub/fresh"), "new");
    await assert.rejects(read("gone"), { code: "ENOENT" });
    assert.deepEqual((await readdir(dir)).sort(), ["kept", "sub"], "no temporary file left");
    // A failure before the rename is still refused and changes nothing.
    faults.failWith("EIO");
    await assert.rejects(writer.write(join(dir, "kept"), "newer"));
    assert.equal(await read("kept"), "new");
  });

  it("leaves other failures as they are", async () => {
    const writer = new DurableWriter();
    await writeFile(join(dir, "file"), "");
    await assert.rejects(writer.write(join(dir, "file", "below"), "x"), (error: unknown) => {
      assert.ok(!(error instanceof StorageUnavailableError));
      return true;
    });
  });

  it("close() waits for pending writes and refuses new ones", async () => {
    const writer = new DurableWriter();
    const pending = writer.write(join(dir, "late.json"), "late");
    await writer.close();
    assert.equal(await read("late.json"), "late");
    await pending;
    await assert.rejects(writer.write(join(dir, "after.json"), "x"), /closed/);
  });

  it("removeLeftoverTempFiles sweeps temp files at any depth and nothing else", async () => {
    await mkdir(join(dir, "statuses", "1"), { recursive: true });
    await writeFile(join(dir, `.a.json.1-1${TEMP_SUFFIX}`), "{");
    await writeFile(join(dir, "statuses", "1", `.2.json.1-2${TEMP_SUFFIX}`), "");
    await writeFile(join(dir, "statuses", "1", "2.json"), "{}");
    const removed = await removeLeftoverTempFiles(dir);
    assert.equal(removed.length, 2);
    assert.deepEqual((await readdir(dir, { recursive: true })).sort(), [
      "statuses",
      join("statuses", "1"),
      join("statuses", "1", "2.json"),
    ]);
  });
});
