// `wren account alias …` and `wren account move` with no server running: the command builds
// the federation itself (aliases and targets are resolved, other servers are fetched), and a
// target that cannot be reached or does not name the account is refused with exit 1.

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runWren, seedAccount } from "./run-wren.ts";

describe("wren account alias and move, server stopped", () => {
  let dataDir: string;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-cli-moves-"));
    env = { WREN_DATA_DIR: dataDir, WREN_PUBLIC_URL: "https://wren.example" };
    for (const name of ["alice", "alice2"]) ids[name] = await seedAccount(name, env);
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  const account = async (name: string) =>
    JSON.parse(await readFile(join(dataDir, "accounts", `${ids[name]}.json`), "utf8"));

  it("adds, lists and removes an alias given as a handle", async () => {
    const added = await runWren(["account", "alias", "add", "alice2", "@alice@wren.example"], env);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stdout, "https://wren.example/users/alice\n");
    assert.deepEqual((await account("alice2")).aliases, ["https://wren.example/users/alice"]);
    const listed = await runWren(["account", "alias", "list", "alice2"], env);
    assert.equal(listed.stdout, "https://wren.example/users/alice\n");
    const removed = await runWren(
      ["account", "alias", "remove", "alice2", "https://wren.example/users/alice"],
      env,
    );
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal(removed.stdout, "");
    assert.deepEqual((await account("alice2")).aliases, []);
  });

  it("refuses aliases and moves it cannot check, changing nothing", async () => {
    const unknown = await runWren(
      ["account", "alias", "add", "alice", "@nobody@wren.example"],
      env,
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Cannot find the account @nobody@wren\.example/);
    const notNamed = await runWren(
      ["account", "move", "alice", "--to", "@alice2@wren.example"],
      env,
    );
    assert.equal(notNamed.code, 1);
    assert.match(notNamed.stderr, /does not list https:\/\/wren\.example\/users\/alice/);
    assert.equal((await account("alice")).movedTo, undefined);
  });

  it("moves an account to one that names it, which then shows as moved", async () => {
    await runWren(["account", "alias", "add", "alice2", "alice@wren.example"], env);
    const moved = await runWren(["account", "move", "alice", "--to", "alice2@wren.example"], env);
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stderr, /alice has moved to alice2/);
    assert.equal((await account("alice")).movedTo, "https://wren.example/users/alice2");
  });
});
