// A server run as pid 1 (a container without an init) is killed; the next one is pid 1 again and
// finds a lock naming its own pid. It must see that the lock's owner is gone and start, where it
// used to refuse ("in use by this process") forever. The new process is made to find that lock by
// a test-only preload (crash-suite/reuse-lock-pid.ts) that rewrites the killed server's lock with
// its own pid.

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseIdentity, startTimeOf } from "../../src/storage/json-file/process-identity.ts";
import { lockWithOwnPid } from "../crash-suite/faults.ts";
import { freePort } from "../helpers/server.ts";
import { spawnWren } from "../helpers/wren-process.ts";

describe("restart with the pid of the killed server (pid 1 in a container)", {
  timeout: 120_000,
}, () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  for (const mode of ["killed", "bare"] as const) {
    const what = mode === "killed" ? "the killed server's lock" : "an older Wren's bare-pid lock";
    it(`starts on ${what} naming its own pid, and holds the lock as itself`, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "wren-pid-reuse-"));
      dirs.push(dataDir);
      const first = await spawnWren(dataDir, await freePort());
      assert.equal(await first.kill("SIGKILL"), "SIGKILL");
      const left = await readFile(join(dataDir, "wren.lock"), "utf8");
      assert.equal(parseIdentity(left)?.pid, first.pid, "the killed server left its lock behind");

      const env = lockWithOwnPid(mode === "killed" ? left : "\n");
      const server = await spawnWren(dataDir, await freePort(), env);
      try {
        const res = await fetch(`${server.url}/api/v1/instance`);
        assert.equal(res.status, 200);
        const holder = parseIdentity(await readFile(join(dataDir, "wren.lock"), "utf8"));
        assert.equal(holder?.pid, server.pid);
        assert.equal(holder?.start, startTimeOf(server.pid), "the lock names the new process");
      } finally {
        assert.equal(await server.kill("SIGTERM"), 0);
      }
    });
  }
});
