// The first account of a new server, made as its start banner says: the printed command, run
// word for word from another folder, must reach THIS server's data directory (a quote and a space
// in its name included). And a one-off command that opens a directory nobody has written yet
// says so on stderr, since a running server elsewhere will never see what it did.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { runWren, serveEnv, startServe, WREN_BIN, wrenEnv } from "./run-wren.ts";

const run = promisify(execFile);
const LISTENING = /Wren is listening on (http:\/\/\S+)\n/;
const HINT = /^ {2}(.*npx wren account create .*)$/m;

describe("first run", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "wren-first-run-"));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("prints an account command that, run as printed from another folder, reaches this server", async () => {
    const dataDir = join(root, "Bob's wren data");
    const server = startServe(await serveEnv(dataDir));
    try {
      const [, url] = await server.waitForOutput(LISTENING);
      const [, printed] = await server.waitForOutput(HINT);
      assert.ok(printed?.startsWith("WREN_DATA_DIR="), printed);

      // Another terminal in another folder, without any WREN_* variable: the printed line goes
      // to a shell as it is, with `npx wren` standing for this checkout's wren.
      const elsewhere = join(root, "elsewhere");
      await mkdir(elsewhere);
      const wren = `'${process.execPath}' '${WREN_BIN}'`;
      const { stderr } = await run("sh", ["-c", printed?.replace("npx wren", wren) ?? ""], {
        cwd: elsewhere,
        env: wrenEnv({}),
      });
      assert.doesNotMatch(stderr, /new empty data directory/);
      assert.equal(existsSync(join(elsewhere, "data")), false, "no ./data beside the command");

      const res = await fetch(`${url}/api/v1/accounts/lookup?acct=alice`);
      assert.equal(res.status, 200, "the server sees the account");
    } finally {
      server.child.kill("SIGTERM");
    }
    assert.equal((await server.exited).code, 0, server.stderr());
  });

  it("warns, without refusing, when a one-off command creates a new empty data directory", async () => {
    const dataDir = join(root, "brand-new");
    const env = { WREN_DATA_DIR: dataDir };
    const args = ["account", "create", "carol", "--email", "carol@example.com"];
    const first = await runWren([...args, "--password", "long pass 12"], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^\d+\n$/, "the account was created");
    assert.ok(first.stderr.includes(`${dataDir} is a new empty data directory`), first.stderr);
    assert.match(first.stderr, /server running with another data directory will not see/);
    assert.match(first.stderr, /WREN_DATA_DIR=/);

    // The directory now holds data: no warning any more.
    const again = await runWren(["token", "create", "carol"], env);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /new empty data directory/);
  });
});
