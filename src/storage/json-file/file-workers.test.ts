import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { DurableWriter } from "./durable-writer.ts";
import {
  appendToFile,
  fileWorkerStats,
  replaceFiles,
  terminateFileWorkers,
} from "./file-workers.ts";

describe("file worker threads", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-file-workers-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const op = (name: string, data: string) => ({
    path: join(dir, name),
    temp: join(dir, `.${name.replaceAll("/", "_")}.tmp`),
    data,
  });

  it("replaces files, each op answered on its own: a failure is that file's, with its code", async () => {
    const ops = [
      ...Array.from({ length: 9 }, (_, i) => op(`${i}.json`, `é${i}`)),
      // Its folder does not exist: only this one fails.
      op("missing/x.json", "x"),
    ];
    const results = await replaceFiles(ops);
    assert.equal(results.length, ops.length);
    assert.deepEqual(results.slice(0, 9), Array(9).fill(null));
    assert.equal((results[9] as NodeJS.ErrnoException).code, "ENOENT");
    assert.ok(results[9] instanceof Error);
    assert.equal(await readFile(join(dir, "7.json"), "utf8"), "é7");
    const names = await readdir(dir);
    assert.equal(names.filter((n) => n.endsWith(".tmp")).length, 0, "no temporary file left");
  });

  it("appends to an open file, and says why it could not", async () => {
    const path = join(dir, "journal");
    const fd = openSync(path, "a");
    try {
      await appendToFile(fd, "one\n", true);
      await appendToFile(fd, "two\n", false);
    } finally {
      closeSync(fd);
    }
    assert.equal(await readFile(path, "utf8"), "one\ntwo\n");
    await assert.rejects(appendToFile(fd, "three\n", true), { code: "EBADF" });
  });

  it("fails the requests of a thread that died as errors of their files, then starts anew", async () => {
    const held = replaceFiles([op("a.json", "a")]);
    await terminateFileWorkers();
    const [result] = await held;
    // Either the thread answered before it ended, or its op failed: never a hang or a throw.
    if (result !== null) assert.ok(result instanceof Error);
    assert.deepEqual(await replaceFiles([op("b.json", "b")]), [null]);
    assert.equal(await readFile(join(dir, "b.json"), "utf8"), "b");
  });

  it("carries the durable writer's file writes (one request per share of a batch)", async () => {
    const before = fileWorkerStats.requests;
    const writer = new DurableWriter();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => writer.write(join(dir, `${i}.json`), `${i}`)),
    );
    assert.equal(await readFile(join(dir, "19.json"), "utf8"), "19");
    const requests = fileWorkerStats.requests - before;
    assert.ok(requests >= 1 && requests <= 4, `${requests} requests for one batch of 20 files`);
  });

  it("does not keep an idle process alive", async () => {
    const script = join(dir, "child.mjs");
    await writeFile(
      script,
      [
        `import { replaceFiles } from ${JSON.stringify(new URL("./file-workers.ts", import.meta.url).href)};`,
        `const [error] = await replaceFiles([${JSON.stringify(op("child.json", "c"))}]);`,
        "if (error) throw error;",
      ].join("\n"),
    );
    // A hang would be this test's failure (the timeout), not a slow pass.
    const child = spawnSync(process.execPath, [script], { timeout: 60_000, encoding: "utf8" });
    assert.equal(child.status, 0, child.stderr);
    assert.equal(await readFile(join(dir, "child.json"), "utf8"), "c");
  });
});
