// Kills a real `wren serve` process with SIGKILL while clients write concurrently, several times
// over one data directory. After every crash: no torn file, every acknowledged write present, and
// the server starts cleanly again (stale lock and admin socket taken over).

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openJsonFileStorage } from "../../src/storage/json-file/index.ts";
import { freePort, RELAXED_LIMITS } from "../helpers/server.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const CYCLES = 4;
const WRITERS = 16;

async function startServe(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, "src/cli/main.ts"), "serve"], {
    env: {
      ...process.env,
      WREN_HOST: "127.0.0.1",
      WREN_PORT: String(port),
      WREN_DATA_DIR: dataDir,
      WREN_PUBLIC_URL: `http://127.0.0.1:${port}`,
      WREN_RATE_LIMIT_REQUESTS: "1000000",
      ...RELAXED_LIMITS,
      WREN_LOG_LEVEL: "error",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wren serve exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/instance`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("wren serve did not start within 90 s");
}

/**
 * Registers apps as fast as it can until the server dies; returns the acknowledged client ids.
 * `firstAck` resolves once one write is acknowledged, so the kill always lands mid-traffic.
 */
function writeUntilDeath(port: number): { done: Promise<string[]>; firstAck: Promise<void> } {
  const acked: string[] = [];
  let ackedOnce: () => void = () => {};
  const firstAck = new Promise<void>((resolve) => {
    ackedOnce = resolve;
  });
  const writer = async (n: number) => {
    for (let i = 0; ; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/apps`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            client_name: `crash ${n}-${i}`,
            redirect_uris: "urn:ietf:wg:oauth:2.0:oob",
          }),
        });
        if (res.status !== 200) throw new Error(`unexpected status ${res.status}`);
        const body = (await res.json()) as { client_id: string };
        acked.push(body.client_id);
        ackedOnce();
      } catch (error) {
        if ((error as Error).message.startsWith("unexpected")) throw error;
        return; // connection refused or reset: the server is gone
      }
    }
  };
  const done = Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(n))).then(() => acked);
  return { done, firstAck };
}

async function allJsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".json"))
    .map((e) => join(e.parentPath, e.name));
}

describe("server crash safety", () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("loses no acknowledged write and tears no file across repeated SIGKILLs", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "wren-crash-"));
    dirs.push(dataDir);
    const acknowledged: string[] = [];

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const port = await freePort();
      const child = await startServe(dataDir, port);
      const exited = new Promise((r) => child.once("exit", r));
      const writing = writeUntilDeath(port);
      // Kill at a random moment once writes are flowing (a loaded machine may take a while).
      await Promise.race([writing.firstAck, writing.done]);
      await new Promise((r) => setTimeout(r, Math.random() * 400));
      child.kill("SIGKILL");
      await exited;
      const acked = await writing.done;
      assert.ok(acked.length > 0, `cycle ${cycle}: some writes were acknowledged`);
      acknowledged.push(...acked);

      for (const file of await allJsonFiles(dataDir)) {
        const text = await readFile(file, "utf8");
        assert.doesNotThrow(() => JSON.parse(text), `torn file ${file}`);
      }
    }

    const storage = await openJsonFileStorage(dataDir);
    try {
      const missing = [];
      for (const clientId of acknowledged) {
        if (!(await storage.apps.findByClientId(clientId))) missing.push(clientId);
      }
      assert.deepEqual(missing, [], "every acknowledged app is on disk");
    } finally {
      await storage.close();
    }

    // And a clean start afterwards.
    const port = await freePort();
    const child = await startServe(dataDir, port);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/instance`);
    assert.equal(res.status, 200);
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
  });
});
