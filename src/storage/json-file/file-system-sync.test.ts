import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DurableWriter } from "./durable-writer.ts";
import {
  FILE_SYSTEM_SYNC_FROM,
  oneDirPerFileSystem,
  syncFileSystems,
  syncfsReportsErrors,
} from "./file-system-sync.ts";

describe("file system syncs (ADR 0085)", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-fs-sync-"));
    await mkdir(join(dir, "a"));
    await mkdir(join(dir, "b"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("is used only on Linux 5.8 and later, whose syncfs reports write-back errors", () => {
    assert.equal(syncfsReportsErrors("linux", "5.8.0"), true);
    assert.equal(syncfsReportsErrors("linux", "6.18.44-fc-v657"), true);
    assert.equal(syncfsReportsErrors("linux", "5.7.19"), false);
    assert.equal(syncfsReportsErrors("linux", "4.19.0-27-amd64"), false);
    assert.equal(syncfsReportsErrors("darwin", "24.1.0"), false);
    assert.equal(syncfsReportsErrors("win32", "10.0.22631"), false);
  });

  it("syncs one directory per file system, leaving out directories that are gone", async () => {
    const same = await oneDirPerFileSystem([join(dir, "a"), join(dir, "b"), join(dir, "gone")]);
    assert.equal(same.length, 1);
    assert.ok([join(dir, "a"), join(dir, "b")].includes(same[0] as string));
    // A directory on another file system (a tmpfs where there is one) is synced as well.
    const other = "/dev/shm";
    const otherDevice = await stat(other).then(
      (info) => info.dev,
      () => undefined,
    );
    if (otherDevice !== undefined && otherDevice !== (await stat(dir)).dev) {
      const both = await oneDirPerFileSystem([join(dir, "a"), other, join(dir, "b")]);
      assert.deepEqual(both.sort(), [join(dir, "a"), other].sort());
    }
  });

  it("answers false, to have the files synced one by one, where the program cannot do it", async () => {
    if (!syncfsReportsErrors()) {
      assert.equal(await syncFileSystems([dir]), false);
      return;
    }
    assert.equal(await syncFileSystems([join(dir, "a")]), true);
    assert.equal(await syncFileSystems([join(dir, "a")], join(dir, "no-such-program")), false);
    // A program that fails (as `sync` does on an I/O error): nothing is taken as durable.
    assert.equal(await syncFileSystems([join(dir, "a")], "false"), false);
  });

  it("makes many deferred files durable with one sync, falling back to fsync one by one", async () => {
    const count = FILE_SYSTEM_SYNC_FROM;
    const files = Array.from({ length: count }, (_, i) => join(dir, "a", `${i}.json`));
    await Promise.all(files.map((file) => writeFile(file, "{}")));

    const asked: string[][] = [];
    const syncing = new DurableWriter({
      syncFileSystems: async (dirs) => {
        asked.push([...dirs]);
        return true;
      },
    });
    for (const file of files) syncing.noteDeferred(file);
    await syncing.syncDeferred();
    assert.deepEqual(asked, [[join(dir, "a")]]);
    assert.equal(syncing.stats.fileSystemSyncs, 1);
    assert.equal(syncing.stats.deferredFileSyncs, 0);
    // Taken: nothing is left for the next call.
    await syncing.syncDeferred();
    assert.equal(asked.length, 1);

    const refused = new DurableWriter({ syncFileSystems: async () => false });
    for (const file of files) refused.noteDeferred(file);
    await refused.syncDeferred();
    assert.equal(refused.stats.fileSystemSyncs, 0);
    assert.equal(refused.stats.deferredFileSyncs, count);

    // Fewer files than are worth a process: one by one, the file systems never asked.
    const few = new DurableWriter({
      syncFileSystems: async () => assert.fail("asked to sync the file systems for a few files"),
    });
    for (const file of files.slice(0, count - 1)) few.noteDeferred(file);
    await few.syncDeferred();
    assert.equal(few.stats.deferredFileSyncs, count - 1);
  });

  it("syncs the file systems themselves where it can", async () => {
    const writer = new DurableWriter();
    const files = Array.from({ length: FILE_SYSTEM_SYNC_FROM }, (_, i) =>
      join(dir, "b", `${i}.json`),
    );
    await Promise.all(files.map((file) => writeFile(file, "{}")));
    for (const file of files) writer.noteDeferred(file);
    await writer.syncDeferred();
    const synced = syncfsReportsErrors() ? 1 : 0;
    assert.equal(writer.stats.fileSystemSyncs, synced);
    assert.equal(writer.stats.deferredFileSyncs, synced ? 0 : files.length);
  });
});
