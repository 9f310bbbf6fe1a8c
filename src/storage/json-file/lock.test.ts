import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { openJsonFileStorage, readLockHolder } from "./index.ts";
import { acquireLock, LOCK_FILE } from "./lock.ts";
import {
  currentBootId,
  formatIdentity,
  ownIdentity,
  parseIdentity,
  startTimeOf,
} from "./process-identity.ts";
import { finished, moduleUrl, spawnCode, waitForLine } from "./testing/child.ts";

/** A pid that surely belongs to no process: one of a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawnCode("");
  await finished(child);
  assert.ok(child.pid);
  return child.pid;
}

describe("data directory lock", { timeout: 30_000 }, () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-lock-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("holds our pid while open, refuses a second open in this process, and is removed on close", async () => {
    assert.equal(readLockHolder(dir), null);
    const storage = await openJsonFileStorage(dir);
    assert.equal(await readFile(join(dir, LOCK_FILE), "utf8"), formatIdentity(ownIdentity()));
    assert.equal(readLockHolder(dir), process.pid);
    await assert.rejects(openJsonFileStorage(dir), (error: Error) => {
      assert.match(error.message, new RegExp(`this process \\(${process.pid}\\)`));
      assert.ok(error.message.includes(join(dir, LOCK_FILE)));
      return true;
    });
    await storage.close();
    assert.equal(readLockHolder(dir), null);
    await assert.rejects(readFile(join(dir, LOCK_FILE)), { code: "ENOENT" });
    // Open again, and check that closing the first storage twice leaves the new lock alone.
    const again = await openJsonFileStorage(dir);
    await storage.close();
    assert.equal(readLockHolder(dir), process.pid);
    await again.close();
  });

  it("refuses a second process while we hold the directory", async () => {
    const storage = await openJsonFileStorage(dir);
    try {
      const child = spawnCode(`
        import { openJsonFileStorage } from ${JSON.stringify(moduleUrl("index.ts"))};
        try {
          await openJsonFileStorage(${JSON.stringify(dir)});
          console.log("opened");
        } catch (error) {
          console.log("refused: " + error.message);
        }`);
      const result = await finished(child);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`^refused: .*in use by process ${process.pid}\\b`));
      assert.equal(readLockHolder(dir), process.pid, "the refused process left our lock alone");
    } finally {
      await storage.close();
    }
  });

  it("is refused while another process holds it, and taken over once that process is killed", async () => {
    const child = spawnCode(`
      import { openJsonFileStorage } from ${JSON.stringify(moduleUrl("index.ts"))};
      await openJsonFileStorage(${JSON.stringify(dir)});
      console.log("ready");
      setInterval(() => {}, 1000);`);
    const done = finished(child);
    try {
      await waitForLine(child, "ready");
      assert.equal(readLockHolder(dir), child.pid);
      await assert.rejects(
        openJsonFileStorage(dir),
        new RegExp(`in use by process ${child.pid}\\b`),
      );
    } finally {
      // Also when an assertion failed: a child left running would keep the test run alive.
      child.kill("SIGKILL");
      await done;
    }
    assert.equal(readLockHolder(dir), null, "a dead holder is no holder");
    const storage = await openJsonFileStorage(dir);
    assert.equal(readLockHolder(dir), process.pid);
    await storage.close();
  });

  it("takes over a stale lock whose pid is dead", async () => {
    const pid = await deadPid();
    await writeFile(join(dir, LOCK_FILE), `${pid}\n`);
    assert.equal(readLockHolder(dir), null);
    const lock = await acquireLock(dir);
    assert.equal(parseIdentity(await readFile(lock.file, "utf8"))?.pid, process.pid);
    await lock.release();
    await lock.release();
    assert.equal(readLockHolder(dir), null);
  });

  it("takes over a lock file that holds no pid (a crash right after creating it)", async () => {
    await writeFile(join(dir, LOCK_FILE), "");
    const lock = await acquireLock(dir);
    assert.equal(readLockHolder(dir), process.pid);
    await lock.release();
  });
  // A container without an init runs the server as pid 1 every time: the lock of the killed
  // server names the pid of the next one, which must not take it for its own.
  it("takes over a lock naming this process's pid that this process does not hold", async () => {
    const earlier = [
      `${process.pid}\n`, // written by an older Wren: the pid alone
      formatIdentity({ pid: process.pid, start: "1", boot: currentBootId() }),
    ];
    for (const text of earlier) {
      await writeFile(join(dir, LOCK_FILE), text);
      assert.equal(readLockHolder(dir), null, `no live holder in ${JSON.stringify(text)}`);
      const storage = await openJsonFileStorage(dir);
      assert.equal(readLockHolder(dir), process.pid);
      await storage.close();
    }
  });

  it("tells a live process apart from the one that held the lock with its pid before", async () => {
    const child = spawnCode("setInterval(() => {}, 1000);");
    const done = finished(child);
    try {
      const pid = child.pid as number;
      const start = startTimeOf(pid);
      // Where start times can be read (Linux), another start time is another process; elsewhere
      // only the pid is known, and a live pid keeps the lock.
      const reused = formatIdentity({ pid, start: "1", boot: currentBootId() });
      await writeFile(join(dir, LOCK_FILE), reused);
      if (start === undefined) {
        assert.equal(readLockHolder(dir), pid);
        return;
      }
      assert.equal(readLockHolder(dir), null, "a reused pid is no holder");
      const storage = await openJsonFileStorage(dir);
      await storage.close();
      // The same process (same start time and boot) keeps its lock.
      await writeFile(join(dir, LOCK_FILE), formatIdentity({ pid, start, boot: currentBootId() }));
      assert.equal(readLockHolder(dir), pid);
      await assert.rejects(openJsonFileStorage(dir), new RegExp(`in use by process ${pid}\\b`));
      // A lock from before the machine last booted names no running process at all.
      const otherBoot = formatIdentity({
        pid,
        start,
        boot: "00000000-0000-0000-0000-000000000000",
      });
      await writeFile(join(dir, LOCK_FILE), otherBoot);
      assert.equal(readLockHolder(dir), currentBootId() === undefined ? pid : null);
    } finally {
      child.kill("SIGKILL");
      await done;
    }
  });
});
