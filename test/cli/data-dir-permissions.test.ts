// A data directory that the server's user cannot write: `wren serve` names the path and says how
// to fix it, instead of blaming the port (both failures are EACCES).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { serveEnv, WREN_BIN, wrenEnv } from "./run-wren.ts";

/** A user that is not the owner of the data directory (root ignores modes, so drop to nobody). */
const OTHER_USER = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

describe("wren serve with a data directory it cannot write", () => {
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-readonly-data-"));
    // Readable by everyone, writable by its owner only.
    await chmod(dataDir, 0o555);
  });
  after(async () => {
    await chmod(dataDir, 0o755);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("names the path and the fix, not the port", async () => {
    const child = spawn(process.execPath, [WREN_BIN, "serve"], {
      env: wrenEnv(await serveEnv(dataDir)),
      stdio: ["ignore", "pipe", "pipe"],
      ...OTHER_USER,
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (s: string) => {
      stderr += s;
    });
    const [code] = await once(child, "close");
    assert.notEqual(code, 0);
    assert.doesNotMatch(stderr, /port above 1023/);
    assert.match(stderr, new RegExp(`Cannot use ${dataDir}\\S*: permission denied`));
    assert.match(stderr, /chown -R/);
  });
});
