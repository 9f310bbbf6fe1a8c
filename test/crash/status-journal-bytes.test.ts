// ADR 0065: a status is acknowledged once its journal line, holding the file's bytes, is
// fdatasynced; the file itself is renamed into place without fsync, after the answer (ADR 0084). These tests kill a writer
// with SIGKILL right after its puts were acknowledged, then play the power cut the page cache
// would have hidden: files missing, emptied, cut short or left at an older version. A start
// must bring every acknowledged status back from the journal, in the files and in memory.

import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, truncate, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, beforeEach, describe, it } from "node:test";
import { makeStatus } from "../../src/storage/contract/fixtures.ts";
import { openJsonFileStorage } from "../../src/storage/json-file/index.ts";
import { SNAPSHOT_FILE } from "../../src/storage/json-file/status-snapshot.ts";
import type { JsonFileStatusStore } from "../../src/storage/json-file/status-store.ts";
import { moduleUrl, spawnCode, waitForLine } from "../../src/storage/json-file/testing/child.ts";
import { WriteFaults } from "../../src/storage/json-file/write-faults.ts";

const COUNT = 40;
const ids = Array.from({ length: COUNT }, (_, n) => String(5000 + n));
const text = (id: string, version: number) => `status ${id}, version ${version}`;

/**
 * In a child process: puts every status (version 1), then edits the first one (version 2),
 * prints "acked" once all are acknowledged (and, with `filed`, their files written: ADR 0084),
 * and is killed with SIGKILL at once.
 */
async function writeAndKill(dir: string, options: { filed?: boolean } = {}): Promise<void> {
  const child = spawnCode(`
    import { openJsonFileStorage } from ${JSON.stringify(moduleUrl("index.ts"))};
    import { makeStatus } from ${JSON.stringify(moduleUrl("../contract/fixtures.ts"))};
    const storage = await openJsonFileStorage(${JSON.stringify(dir)});
    const ids = ${JSON.stringify(ids)};
    await Promise.all(ids.map((id) =>
      storage.statuses.put(makeStatus({ id, accountId: "1", text: "status " + id + ", version 1" }))));
    await storage.statuses.put(
      makeStatus({ id: ids[0], accountId: "1", text: "status " + ids[0] + ", version 2" }));
    ${options.filed ? "await storage.statuses.filed();" : ""}
    console.log("acked");
    setInterval(() => {}, 1000);
  `);
  await killAfter(child, "acked");
}

/** SIGKILLs `child` as soon as it prints `line`. */
async function killAfter(child: ReturnType<typeof spawnCode>, line: string): Promise<void> {
  const exited = new Promise((resolve) => child.on("exit", resolve));
  await waitForLine(child, line);
  child.kill("SIGKILL");
  await exited;
}

/** Everything the status journals in `dir` hold. */
async function journalText(dir: string): Promise<string> {
  const journals = (await readdir(dir)).filter((n) => n.startsWith("statuses.journal."));
  return (await Promise.all(journals.map((name) => readFile(join(dir, name), "utf8")))).join("");
}

const fileOf = (dir: string, id: string) => join(dir, "statuses", "1", `${id}.json`);

describe("status journal with the files' bytes (ADR 0065)", { timeout: 60_000 }, () => {
  // A fresh data directory per test, each removed at the end.
  let dir = "";
  const made: string[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-journal-bytes-"));
    made.push(dir);
  });
  after(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

  /** Every acknowledged status is back, in memory, in the account's list and in its file. */
  async function expectAllBack(): Promise<string> {
    const storage = await openJsonFileStorage(dir);
    try {
      const statuses = await storage.statuses.getMany(ids);
      for (const id of ids) {
        const version = id === ids[0] ? 2 : 1;
        assert.equal(statuses.get(id)?.text, text(id, version), `status ${id}`);
      }
      const listed = await storage.statuses.listByAccount("1", { limit: COUNT + 10 });
      assert.deepEqual(
        listed.map((s) => s.id),
        [...ids].reverse(),
      );
      for (const id of ids) {
        const file = JSON.parse(await readFile(fileOf(dir, id), "utf8"));
        assert.equal(file.text, text(id, id === ids[0] ? 2 : 1), `file of ${id}`);
      }
      return (storage.statuses as JsonFileStatusStore).loadedFrom;
    } finally {
      await storage.close();
    }
  }

  it("keeps every status acknowledged right before a SIGKILL", async () => {
    await writeAndKill(dir);
    await expectAllBack();
  });

  /** What a power cut can leave of files renamed without fsync. */
  async function losePageCache(): Promise<void> {
    await unlink(fileOf(dir, ids[1] as string));
    await truncate(fileOf(dir, ids[2] as string), 0);
    const cut = fileOf(dir, ids[3] as string);
    await truncate(cut, Math.floor((await readFile(cut)).length / 2));
    // The edit's rename never reached the disk: the first version is still there.
    const edited = fileOf(dir, ids[0] as string);
    const first = JSON.parse(await readFile(edited, "utf8"));
    await writeFile(edited, `${JSON.stringify({ ...first, text: text(ids[0] as string, 1) })}\n`);
  }

  it("restores from the journal the files a power cut lost, behind a snapshot", async () => {
    // A clean run first leaves a snapshot: the start then reads only the journaled files.
    const first = await openJsonFileStorage(dir);
    await first.statuses.put(makeStatus({ id: "100", accountId: "2" }));
    await first.close();
    await writeAndKill(dir, { filed: true });
    await losePageCache();
    assert.equal(await expectAllBack(), "snapshot");
    // Nothing was set aside as damaged: the files were written again, not quarantined.
    assert.deepEqual(
      (await readdir(dir)).filter((name) => name.includes("quarantine")),
      [],
    );
  });

  it("restores them when every file is read (no snapshot)", async () => {
    await writeAndKill(dir, { filed: true });
    await losePageCache();
    await rm(join(dir, SNAPSHOT_FILE), { force: true });
    assert.notEqual(await expectAllBack(), "snapshot");
  });

  it("still reads journals of the older format (names only)", async () => {
    const first = await openJsonFileStorage(dir);
    await first.statuses.put(makeStatus({ id: "100", accountId: "1" }));
    await first.close();
    const [head = ""] = (await readFile(join(dir, SNAPSHOT_FILE), "utf8")).split("\n");
    const header = JSON.parse(head);
    // An older Wren wrote a status and named it, then died.
    const status = makeStatus({ id: "101", accountId: "1", text: "older" });
    await writeFile(fileOf(dir, "101"), `${JSON.stringify(status, null, 2)}\n`);
    await writeFile(join(dir, `statuses.journal.${header.journal}`), "1/101\n");
    const storage = await openJsonFileStorage(dir);
    try {
      assert.equal((storage.statuses as JsonFileStatusStore).loadedFrom, "snapshot");
      assert.equal((await storage.statuses.get("101"))?.text, "older");
    } finally {
      await storage.close();
    }
  });

  it("keeps the journal when the files cannot be synced before a snapshot", async () => {
    const faults = new WriteFaults();
    const storage = await openJsonFileStorage(dir, { writeFaults: faults });
    await storage.statuses.put(makeStatus({ id: "300", accountId: "1", text: "kept" }));
    // The snapshot at close must sync the file and its folder first; that sync fails.
    faults.failDirSyncWith("EIO");
    await assert.rejects(storage.close(), /EIO/);
    faults.clear();
    assert.match(
      await journalText(dir),
      /^\+1\/300\t/m,
      "the line with the file's bytes is still there",
    );
    // And it still does its work: the file lost, a start writes it again.
    await unlink(fileOf(dir, "300"));
    const reopened = await openJsonFileStorage(dir);
    try {
      assert.equal((await reopened.statuses.get("300"))?.text, "kept");
    } finally {
      await reopened.close();
    }
  });

  it("keeps an acknowledged status whose file the disk refused, across a SIGKILL (ADR 0084)", async () => {
    // The status's line, with its bytes, is durable and the put answered; then the disk
    // refuses its file, which stays unfiled. Then a SIGKILL, before any snapshot.
    const child = spawnCode(`
      import { openJsonFileStorage } from ${JSON.stringify(moduleUrl("index.ts"))};
      import { WriteFaults } from ${JSON.stringify(moduleUrl("write-faults.ts"))};
      import { makeStatus } from ${JSON.stringify(moduleUrl("../contract/fixtures.ts"))};
      const faults = new WriteFaults();
      const storage = await openJsonFileStorage(${JSON.stringify(dir)}, { writeFaults: faults });
      await storage.statuses.put(makeStatus({ id: "19", accountId: "1" }));
      await storage.statuses.filed();
      // The journal's append goes through; the file's write, after it, fails.
      faults.failWith("EIO", { after: 1 });
      await storage.statuses.put(makeStatus({ id: "20", accountId: "1", text: "acknowledged" }));
      await storage.statuses.filed();
      const read = await storage.statuses.get("20");
      console.log(read?.text === "acknowledged" && faults.refused > 0 ? "unfiled" : "wrong");
      setInterval(() => {}, 1000);
    `);
    await killAfter(child, "unfiled");
    await assert.rejects(readFile(fileOf(dir, "20")), { code: "ENOENT" });
    assert.match(await journalText(dir), /^\+1\/20\t"/m, "the status's line is in the journal");
    const reopened = await openJsonFileStorage(dir);
    try {
      assert.equal((await reopened.statuses.get("19"))?.id, "19");
      assert.equal((await reopened.statuses.get("20"))?.text, "acknowledged");
      // The start wrote the file from its line.
      assert.equal(JSON.parse(await readFile(fileOf(dir, "20"), "utf8")).text, "acknowledged");
    } finally {
      await reopened.close();
    }
  });
});
