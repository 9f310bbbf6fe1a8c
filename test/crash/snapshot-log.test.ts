// When start-up reads every status file instead of the snapshot, the log says why: after a
// SIGKILL (no snapshot: normal after an unclean stop) and with a damaged snapshot.

import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SNAPSHOT_FILE } from "../../src/storage/json-file/status-snapshot.ts";
import { freePort } from "../helpers/server.ts";
import { type SeededUser, seedUsers, spawnWren } from "../helpers/wren-process.ts";

const INFO = { WREN_LOG_LEVEL: "info" };

describe("status snapshot not used at start", () => {
  let dataDir: string;
  let port: number;
  let user: SeededUser;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "wren-snapshot-log-"));
    port = await freePort();
    [user] = (await seedUsers(dataDir, ["alice"])) as [SeededUser];
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it("says the snapshot is missing after an unclean stop", async () => {
    const first = await spawnWren(dataDir, port, INFO);
    const res = await fetch(`${first.url}/api/v1/statuses`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "before the kill" }),
    });
    assert.equal(res.status, 200);
    await first.kill("SIGKILL");

    const second = await spawnWren(dataDir, port, INFO);
    await second.kill("SIGTERM");
    assert.match(
      second.stderr(),
      /No status snapshot at .*statuses\.snapshot \(normal after an unclean stop\): read all 1 status files/,
    );
  });

  it("says the snapshot is damaged when it is", async () => {
    // The clean stop above wrote a snapshot; damage it.
    await writeFile(join(dataDir, SNAPSHOT_FILE), "not a snapshot\n");
    const third = await spawnWren(dataDir, port, INFO);
    await third.kill("SIGTERM");
    assert.match(
      third.stderr(),
      /Status snapshot .*statuses\.snapshot not used because it is damaged/,
    );
  });
});
