// `wren domain block` with a severity and flags, `wren domain allow`, `wren ip-block add|list`
// and `wren email-block add|list`, as an operator runs them against a running server (its admin
// socket). Kept to a few runs: each starts a Node process.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { runWren } from "./run-wren.ts";

describe("wren server-level block commands", () => {
  let server: TestServer;
  let env: Record<string, string>;
  before(async () => {
    server = await startTestServer();
    env = { WREN_DATA_DIR: server.dataDir };
  });
  after(() => server.close());

  const wren = async (...args: string[]) => {
    const result = await runWren(args, env, 60_000);
    return result;
  };

  it("blocks with a severity and flags, allows, and blocks addresses and email domains", async () => {
    const block = await wren(
      "domain",
      "block",
      "Loud.Example",
      "--severity",
      "silence",
      "--reject-media",
      "--obfuscate",
      "--public-comment",
      "Too loud",
    );
    assert.equal(block.code, 0, block.stderr);
    assert.equal(block.stdout, "loud.example\n");
    assert.match(block.stderr, /silence/);
    const list = await wren("domain", "list");
    const [row] = list.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    assert.deepEqual(
      [row?.[0], row?.[2], row?.[3]],
      ["loud.example", "silence", "reject-media,obfuscate"],
    );
    const allow = await wren("domain", "allow", "Friend.Example");
    assert.equal(allow.stdout, "friend.example\n");

    const ip = await wren(
      "ip-block",
      "add",
      "198.51.100.0/24",
      "--severity",
      "no_access",
      "--comment",
      "abuse",
    );
    assert.equal(ip.code, 0, ip.stderr);
    assert.equal(ip.stdout, "198.51.100.0/24\n");
    assert.match(
      (await wren("ip-block", "list")).stdout,
      /^198\.51\.100\.0\/24\tno_access\t-\tabuse\n$/,
    );

    assert.equal(
      (await wren("email-block", "add", "Junk.Example", "--allow-with-approval")).code,
      0,
    );
    assert.match((await wren("email-block", "list")).stdout, /^junk\.example\t\S+\tapproval\n$/);
  });
});
