// The command line itself: help for every command, exit code 2 and a message for wrong use.

import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runWren } from "./run-wren.ts";

describe("wren command line", { concurrency: 8 }, () => {
  let dataDir: string;
  let env: Record<string, string>;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-cli-usage-"));
    env = { WREN_DATA_DIR: dataDir };
  });
  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const helps: [string[], RegExp][] = [
    [["--help"], /Usage: wren COMMAND/],
    [["-h"], /Usage: wren COMMAND/],
    [["help"], /Usage: wren COMMAND/],
    [["serve", "--help"], /Usage: wren serve \[--role ROLE\]\n/],
    [["account", "--help"], /Usage: wren account SUBCOMMAND[\s\S]*wren account create USERNAME/],
    [
      ["account", "create", "--help"],
      /Usage: wren account create USERNAME --email EMAIL --password PASSWORD \[--admin\]/,
    ],
    [
      ["account", "reset-password", "-h"],
      /Usage: wren account reset-password USERNAME --password PASSWORD/,
    ],
    [["token", "--help"], /wren token create USERNAME/],
    [["token", "create", "--help"], /Usage: wren token create USERNAME \[--scopes SCOPES\]/],
    [["help", "token", "create"], /Usage: wren token create USERNAME/],
    // Help wins even over a mistake on the same line.
    [["account", "create", "--bogus", "--help"], /Usage: wren account create/],
  ];
  for (const [args, pattern] of helps) {
    it(`prints help for \`wren ${args.join(" ")}\` and exits 0`, async () => {
      const result = await runWren(args, env);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, pattern);
      assert.equal(result.stderr, "");
    });
  }

  it("--help does not start or touch anything", async () => {
    const result = await runWren(["serve", "--help"], env);
    assert.equal(result.code, 0);
    assert.deepEqual(await readdir(dataDir), []);
  });

  it("prints the version", async () => {
    const result = await runWren(["--version"], env);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  const mistakes: [string[], RegExp][] = [
    [[], /Usage: wren COMMAND/],
    [["frobnicate"], /Unknown command: frobnicate/],
    [["account"], /Usage: wren account SUBCOMMAND/],
    [["account", "delete", "alice"], /Unknown command: wren account delete/],
    [["account", "create"], /Missing USERNAME/],
    [["account", "create", "alice", "--password", "long enough"], /Missing --email/],
    [["account", "create", "alice", "--email", "a@example.com"], /Missing --password/],
    [
      ["account", "create", "alice", "bob", "--email", "a@b.c", "--password", "x"],
      /Unexpected argument: bob/,
    ],
    [["account", "create", "alice", "--email"], /--email/],
    [["account", "create", "alice", "--admin=yes"], /--admin/],
    [["account", "reset-password", "alice"], /Missing --password/],
    [["token", "create"], /Missing USERNAME/],
    [["token", "create", "alice", "--scope", "read"], /Unknown option '--scope'/],
    [["serve", "extra"], /Unexpected argument: extra/],
  ];
  for (const [args, pattern] of mistakes) {
    it(`exits 2 with a message for \`wren ${args.join(" ")}\``, async () => {
      const result = await runWren(args, env);
      assert.equal(result.code, 2, `stdout: ${result.stdout}\nstderr: ${result.stderr}`);
      assert.match(result.stderr, pattern);
      assert.equal(result.stdout, "");
    });
  }

  it("points to the right help after a usage error", async () => {
    const result = await runWren(["account", "create", "alice"], env);
    assert.match(result.stderr, /Run `wren account create --help` for help\./);
  });

  it("usage errors do not open the data directory", async () => {
    await runWren(["account", "create", "alice", "--email", "a@example.com"], env);
    assert.deepEqual(await readdir(dataDir), []);
  });
});
