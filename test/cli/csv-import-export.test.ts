// `wren import-csv`, `wren import-status` and `wren export-csv` as an operator runs them. Without
// a server the import is only checked and queued (the status shows its rows waiting); the next
// `wren serve` works through them, and the record, kept in the store, shows them done. A file of
// the wrong kind is refused before anything is queued.

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runWren, seedAccount, serveEnv, startServe } from "./run-wren.ts";

describe("wren import-csv, import-status and export-csv", () => {
  let dataDir: string;
  let env: Record<string, string>;
  let domain: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-cli-csv-"));
    env = await serveEnv(dataDir);
    domain = new URL(env.WREN_PUBLIC_URL as string).host;
    for (const name of ["alice", "bob", "carol"]) await seedAccount(name, env);
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it("refuses a file of another kind and an unknown type", async () => {
    const file = join(dataDir, "mutes.csv");
    await writeFile(file, "Account address,Hide notifications\nbob,true\n");
    const wrong = await runWren(["import-csv", "alice", "domain-blocks", file], env);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /does not have the columns of a domain-blocks import/);
    const unknown = await runWren(["import-csv", "alice", "statuses", file], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /TYPE must be one of following, lists/);
  });

  it("queues an import without a server, and the server works through it", async () => {
    const file = join(dataDir, "following_accounts.csv");
    await writeFile(
      file,
      `Account address,Show boosts,Notify on new posts,Languages\nbob@${domain},false,true,en\n@carol,true,false,\nnobody@${domain},true,false,\n`,
    );
    const started = await runWren(["import-csv", "alice", "following", file], env);
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.trim();
    assert.match(id, /^[0-9]+$/);
    assert.match(started.stderr, /Queued 3 rows/);
    const waiting = await runWren(["import-status", id], env);
    assert.equal(waiting.code, 0, waiting.stderr);
    assert.match(waiting.stdout, /following \(merge\) for alice, .*in progress/);
    assert.match(waiting.stdout, /Processed 0 of 3 rows, 0 failed/);

    const server = startServe(env);
    try {
      await server.waitForOutput(/listening/i);
      let status = "";
      for (let tries = 0; tries < 200; tries++) {
        status = (await runWren(["import-status", id], env)).stdout;
        if (/finished at/.test(status)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.match(status, /Processed 3 of 3 rows, 1 failed/);
      assert.match(status, new RegExp(`^3\\tnobody@${domain}\\tCannot find the account`, "m"));
      const out = join(dataDir, "export.csv");
      const exported = await runWren(["export-csv", "alice", "following", "--output", out], env);
      assert.equal(exported.code, 0, exported.stderr);
      const lines = (await readFile(out, "utf8")).split("\n");
      assert.equal(lines[0], "Account address,Show boosts,Notify on new posts,Languages");
      assert.deepEqual(lines.slice(1).sort(), [
        "",
        `bob@${domain},false,true,en`,
        `carol@${domain},true,false,`,
      ]);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});
