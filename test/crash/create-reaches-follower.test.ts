// A crash must not lose a delivery (ADR 0013). A real `wren serve` with a follower on another
// instance is SIGKILLed right after a new status is stored — the status write is done, its
// listeners (the outbox that queues the Create) have not run, the client has no answer. After a
// restart the Create must still reach the follower: the event was recorded before the write.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { after, before, describe, it } from "node:test";
import { scanDataDir } from "../crash-suite/checks.ts";
import { killAfterRenameInto } from "../crash-suite/faults.ts";
import {
  api,
  eventually,
  type Instance,
  relationship,
  resolveAccount,
  startFederation,
  type TestFederation,
  user,
} from "../helpers/federation.ts";
import { freePort } from "../helpers/server.ts";
import { TEST_CA_FILE, TEST_TLS_ENV } from "../helpers/tls.ts";
import {
  type SeededUser,
  seedUsers,
  spawnWren,
  type WrenProcess,
} from "../helpers/wren-process.ts";

function postStatus(url: string, poster: SeededUser, text: string) {
  return fetch(`${url}/api/v1/statuses`, {
    method: "POST",
    headers: { authorization: `Bearer ${poster.token}`, "content-type": "application/json" },
    body: JSON.stringify({ status: text, visibility: "public" }),
  });
}

/** The statuses of `accountId` a start will hold: their files, the journals' lines laid over. */
async function storedStatusIds(dataDir: string, accountId: string): Promise<string[]> {
  const prefix = join("statuses", accountId) + sep;
  return [...(await scanDataDir(dataDir)).files.keys()]
    .filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length, -".json".length));
}

async function homeContents(instance: Instance, token: string): Promise<string[]> {
  const home = await api(instance, token, "GET", "/api/v1/timelines/home?limit=40");
  return home.map((s: { content: string }) => s.content);
}

describe("a crash between a status write and its side effects", { timeout: 180_000 }, () => {
  let federation: TestFederation;
  let dataDir: string;
  let server: WrenProcess | undefined;
  before(async () => {
    federation = await startFederation(1);
    dataDir = await mkdtemp(join(tmpdir(), "wren-crash-create-"));
  });
  after(async () => {
    await server?.kill("SIGKILL");
    await federation.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("still delivers the Create to the remote follower after the restart", async () => {
    const [follower] = federation.instances as [Instance];
    const bob = await user(follower, "bob");
    const port = await freePort();
    // The crashing instance federates over HTTPS like the in-process one, and trusts the test CA.
    const env = {
      ...TEST_TLS_ENV,
      WREN_PUBLIC_URL: `https://127.0.0.1:${port}`,
      WREN_ALLOW_PRIVATE_ADDRESSES: "true",
      NODE_EXTRA_CA_CERTS: TEST_CA_FILE,
    };
    const [alice] = (await seedUsers(dataDir, ["alice"], env)) as [SeededUser];

    server = await spawnWren(dataDir, port, env);
    const remoteAlice = await resolveAccount(follower, bob.token, `alice@127.0.0.1:${port}`);
    await api(follower, bob.token, "POST", `/api/v1/accounts/${remoteAlice.id}/follow`);
    // Accepted: the poster's server has stored the follow before it answered.
    await eventually(async () => {
      assert.equal((await relationship(follower, bob.token, remoteAlice.id)).following, true);
    });
    await server.kill("SIGTERM");

    // The kill lands right after the status is stored (its journal line): before the listeners.
    const text = "posted just before the crash";
    server = await spawnWren(dataDir, port, { ...env, ...killAfterRenameInto("statuses") });
    await assert.rejects(postStatus(server.url, alice, text), "the kill cut the answer off");
    assert.equal(await server.exited, "SIGKILL");
    const stored = await storedStatusIds(dataDir, alice.id);
    assert.equal(stored.length, 1, "the status was stored before the crash");
    assert.ok(
      !(await homeContents(follower, bob.token)).some((c) => c.includes(text)),
      "nothing was delivered before the crash",
    );

    server = await spawnWren(dataDir, port, env);
    await eventually(
      async () => {
        const contents = await homeContents(follower, bob.token);
        assert.ok(
          contents.some((c) => c.includes(text)),
          `the Create has not arrived: ${contents}`,
        );
      },
      { timeout: 60_000 },
    );
    const listed = await api(follower, bob.token, "GET", "/api/v1/timelines/home?limit=40");
    assert.equal(
      listed.filter((s: { content: string }) => s.content.includes(text)).length,
      1,
      "delivered once",
    );
  });
});
