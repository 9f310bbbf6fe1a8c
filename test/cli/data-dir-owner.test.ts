// A command run directly on the data directory (no server) by another user than the directory's
// owner is refused before it writes anything: its files would be unwritable for the server.

import assert from "node:assert/strict";
import { chown, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runWren, serveEnv, startServe } from "./run-wren.ts";

const NOBODY = 65534;

describe("wren commands on a data directory of another user", () => {
  let dataDir: string;
  let owner: number;

  before(async () => {
    if (process.getuid?.() === 0) {
      dataDir = await mkdtemp(join(tmpdir(), "wren-other-owner-"));
      await chown(dataDir, NOBODY, NOBODY);
      owner = NOBODY;
    } else {
      // Not root: a directory that already belongs to someone else (root), which the refusal
      // keeps this command from even trying to write.
      dataDir = "/";
      owner = 0;
    }
  });
  after(async () => {
    if (dataDir !== "/") await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses, names both users and how to run it as the owner, and writes nothing", async () => {
    const before = dataDir === "/" ? [] : await readdir(dataDir);
    const result = await runWren(
      [
        "account",
        "create",
        "alice",
        "--email",
        "alice@example.com",
        "--password",
        "a long passphrase here",
      ],
      { WREN_DATA_DIR: dataDir },
    );
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`belongs to uid ${owner}, but this command runs as uid ${process.getuid?.()}`),
    );
    assert.match(result.stderr, new RegExp(`sudo -u '#${owner}'`));
    if (dataDir !== "/") assert.deepEqual(await readdir(dataDir), before);
  });

  it("wren serve warns (and, as root, starts)", async () => {
    const server = startServe(await serveEnv(dataDir));
    // The warning comes before the start; as a normal user on `/` the start then fails.
    const warning = new RegExp(
      `belongs to uid ${owner}, but Wren runs as uid ${process.getuid?.()}: the files it creates`,
    );
    const deadline = Date.now() + 20_000;
    while (
      !warning.test(server.stderr()) &&
      server.child.exitCode === null &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (process.getuid?.() === 0) await server.waitForOutput(/Wren is listening on/);
    server.child.kill("SIGTERM");
    await server.exited;
    assert.match(server.stderr(), warning);
  });
});
