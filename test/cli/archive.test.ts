// `wren archive` as an operator runs it: without a server the command builds the zip itself;
// with one, the server's job builds it, the command follows its progress and reads the zip
// through the admin socket. Either way the file unzips to Mastodon's layout.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { runWren, seedAccount, serveEnv, startServe } from "./run-wren.ts";

const run = promisify(execFile);

describe("wren archive", () => {
  let dataDir: string;
  let outDir: string;
  let env: Record<string, string>;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-cli-archive-"));
    outDir = await mkdtemp(join(tmpdir(), "wren-cli-archive-out-"));
    env = await serveEnv(dataDir);
    await seedAccount("alice", env);
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  });

  async function unzipped(file: string, name: string): Promise<Record<string, unknown>> {
    const out = join(outDir, `${name}-out`);
    await run("unzip", ["-q", file, "-d", out]);
    return JSON.parse(await readFile(join(out, "actor.json"), "utf8")) as Record<string, unknown>;
  }

  it("builds the archive itself without a server", async () => {
    const file = join(outDir, "direct.zip");
    const made = await runWren(["archive", "alice", "--out", file], env);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /Archive \d+: \d+ of \d+ items/);
    const actor = await unzipped(file, "direct");
    assert.equal(actor.preferredUsername, "alice");
    assert.equal(actor.outbox, "outbox.json");
  });

  it("lets a running server build it and reads it through the admin socket", async () => {
    const server = startServe(env);
    try {
      await server.waitForOutput(/listening/i);
      const file = join(outDir, "served.zip");
      const made = await runWren(["archive", "alice", "--out", file], env);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stderr, /Wrote .*served\.zip/);
      assert.equal((await unzipped(file, "served")).preferredUsername, "alice");
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});
