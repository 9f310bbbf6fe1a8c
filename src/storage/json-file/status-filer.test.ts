// ADR 0084: status files written after the answer, by a thread, with their bodies pinned until
// then; a failing disk keeps them unfiled and tried again; removals wait for a file being written.

import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { StorageUnavailableError } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import { makeStatus } from "../contract/fixtures.ts";
import { DurableWriter, TEMP_SUFFIX } from "./durable-writer.ts";
import { filingThreadOptions, StatusFiler, type Unfiled } from "./status-filer.ts";
import { WriteFaults } from "./write-faults.ts";

const unfiled = (id: string, text = `status ${id}`): Unfiled => {
  const body = makeStatus({ id, accountId: "7", text }) as Status;
  return { id, file: `7/${id}.json`, json: `${JSON.stringify(body, null, 2)}\n`, body };
};

describe("the status filer", () => {
  let dir: string;
  let faults: WriteFaults;
  let filer: StatusFiler;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-filer-"));
    faults = new WriteFaults();
    filer = new StatusFiler(dir, new DurableWriter({ faults }), { maxUnfiled: 3 });
  });
  afterEach(async () => {
    await filer.close();
    await rm(dir, { recursive: true, force: true });
  });

  const read = (id: string) => readFile(join(dir, "7", `${id}.json`), "utf8");

  it("writes the files handed over, the last version of each, and pins bodies until then", async () => {
    const first = unfiled("1", "first");
    filer.file(first);
    filer.file(unfiled("2"));
    filer.file(unfiled("1", "second"));
    assert.equal(filer.body("1")?.text, "second");
    assert.deepEqual(
      filer.lines().map((line) => line.slice(0, line.indexOf("\t"))),
      ["+7/1", "+7/2"],
    );
    await filer.settled();
    assert.equal(JSON.parse(await read("1")).text, "second");
    assert.equal(JSON.parse(await read("2")).text, "status 2");
    assert.equal(filer.size, 0);
    assert.equal(filer.body("1"), undefined);
    assert.deepEqual(filer.lines(), []);
    // Temporary files go: only the two files remain.
    assert.deepEqual((await readdir(dir, { recursive: true })).sort(), [
      "7",
      "7/1.json",
      "7/2.json",
    ]);
  });

  it("keeps a file it cannot write, with its body, and writes it once the disk is back", async () => {
    faults.failWith("EIO");
    filer.file(unfiled("5"));
    await filer.settled();
    assert.equal(filer.size, 1);
    assert.equal(filer.body("5")?.id, "5");
    assert.equal(filer.bytesOf("5"), unfiled("5").json);
    await assert.rejects(read("5"), { code: "ENOENT" });
    assert.ok(faults.refused > 0);
    faults.clear();
    await filer.settled();
    assert.equal(JSON.parse(await read("5")).id, "5");
    assert.equal(filer.size, 0);
    assert.equal((await readdir(dir)).filter((name) => name.endsWith(TEMP_SUFFIX)).length, 0);
  });

  it("holds puts once full, and refuses them while the disk refuses files", async () => {
    faults.failWith("ENOSPC");
    for (const id of ["1", "2", "3"]) filer.file(unfiled(id));
    await filer.settled();
    // Full, and the last batch failed: the disk's error, as a refused write (507).
    await assert.rejects(Promise.resolve(filer.room()), (error) => {
      assert.ok(error instanceof StorageUnavailableError);
      return true;
    });
    faults.clear();
    await filer.settled();
    assert.equal(filer.room(), undefined);
    // Full while the disk works: room comes once the thread has written the files.
    for (const id of ["4", "5", "6"]) filer.file(unfiled(id));
    const room = filer.room();
    assert.ok(room instanceof Promise);
    await room;
    assert.equal(JSON.parse(await read("6")).id, "6");
  });

  it("does not write a file after its removal: hold waits for a batch writing it", async () => {
    filer.file(unfiled("8"));
    filer.file(unfiled("9"));
    // Queued only: taken off the queue.
    const held = await filer.hold("9");
    assert.equal(held?.id, "9");
    filer.forget("9");
    await filer.settled();
    await assert.rejects(read("9"), { code: "ENOENT" });
    assert.equal(JSON.parse(await read("8")).id, "8");
    // Being written: hold returns once the batch is done, and the file is there to remove.
    filer.file(unfiled("10"));
    const writing = filer.settled();
    await new Promise((resolve) => setImmediate(resolve));
    await filer.hold("10");
    assert.equal(JSON.parse(await read("10")).id, "10");
    await writing;
  });
});

describe("the filing thread's start", () => {
  it("shares the process's compile cache through the thread's environment", () => {
    const options = filingThreadOptions([], "/var/cache/wren-compile");
    assert.equal(
      options.env && (options.env as NodeJS.ProcessEnv).NODE_COMPILE_CACHE,
      "/var/cache/wren-compile",
    );
    assert.equal(options.execArgv, undefined);
  });

  it("starts without Node's flags in a string program, and without a cache when none is on", () => {
    const options = filingThreadOptions(["--input-type=module", "--no-warnings"], undefined);
    assert.deepEqual(options, { execArgv: [] });
    assert.deepEqual(filingThreadOptions(["--no-warnings"], undefined), {});
  });
});
