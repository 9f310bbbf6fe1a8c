// A client that times out retries its post with the same Idempotency-Key (what the apps do).
// A real `wren serve` is SIGKILLed at the worst moments of a post: right after the status file
// is stored (before it answered), and right after the key is recorded (before the status is
// stored). After a restart, the retry must answer one status, the same on every repeat, and
// exactly one status must be stored: a duplicate would be federated.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { after, describe, it } from "node:test";
import { scanDataDir } from "../crash-suite/checks.ts";
import { killAfterRenameInto } from "../crash-suite/faults.ts";
import { freePort } from "../helpers/server.ts";
import { type SeededUser, seedUsers, spawnWren } from "../helpers/wren-process.ts";

function postStatus(url: string, user: SeededUser, text: string, key: string) {
  return fetch(`${url}/api/v1/statuses`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${user.token}`,
      "content-type": "application/json",
      "idempotency-key": key,
    },
    body: JSON.stringify({ status: text }),
  });
}

/** Ids of the status files of one account on disk. */
/** The statuses of `accountId` a start will hold: their files, the journals' lines laid over. */
async function storedStatusIds(dataDir: string, accountId: string): Promise<string[]> {
  const prefix = join("statuses", accountId) + sep;
  return [...(await scanDataDir(dataDir)).files.keys()]
    .filter((path) => path.startsWith(prefix))
    .map((path) => path.slice(prefix.length, -".json".length));
}

describe("Idempotency-Key retries across a crash", { timeout: 120_000 }, () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  const moments = [
    { folder: "statuses", when: "after the status is stored, before the answer" },
    { folder: "idempotency", when: "after the key is recorded, before the status is stored" },
  ];
  for (const { folder, when } of moments) {
    it(`answers one status to a retry after a SIGKILL ${when}`, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "wren-retry-"));
      dirs.push(dataDir);
      const [user] = (await seedUsers(dataDir, ["retrier"])) as [SeededUser];
      const key = `retry-${folder}`;
      const text = `posted once (${folder})`;

      const faulty = await spawnWren(dataDir, await freePort(), killAfterRenameInto(folder));
      await assert.rejects(postStatus(faulty.url, user, text, key), "the kill cut the answer off");
      assert.equal(await faulty.exited, "SIGKILL");
      const leftBehind = await storedStatusIds(dataDir, user.id);

      const server = await spawnWren(dataDir, await freePort());
      try {
        const retried = await postStatus(server.url, user, text, key);
        assert.equal(retried.status, 200, await retried.clone().text());
        const status = (await retried.json()) as { id: string; content: string };
        assert.match(status.content, /posted once/);
        // The status the first attempt stored, if it got that far, is the one answered.
        if (leftBehind.length > 0) assert.deepEqual(leftBehind, [status.id]);
        const again = (await (await postStatus(server.url, user, text, key)).json()) as {
          id: string;
        };
        assert.equal(again.id, status.id, "every retry answers the same status");
        assert.deepEqual(await storedStatusIds(dataDir, user.id), [status.id]);

        const listed = await fetch(`${server.url}/api/v1/accounts/${user.id}/statuses`, {
          headers: { authorization: `Bearer ${user.token}` },
        });
        const ids = ((await listed.json()) as { id: string }[]).map((s) => s.id);
        assert.deepEqual(ids, [status.id], "the profile lists the post once");
      } finally {
        await server.kill("SIGTERM");
      }
    });
  }
});
