// json-file specifics of the relation stores: their files on disk, and how opening settles two
// files left for one pair by a crash in the middle of a replacement.

import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  makeEdge,
  makeFollow,
  makeIdempotency,
  makeStatus,
  makeStatusEdit,
} from "../contract/fixtures.ts";
import { openJsonFileStorage } from "./index.ts";

const pretty = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;

describe("json-file relation stores", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-json-rel-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const read = (...path: string[]) => readFile(join(dir, ...path), "utf8");

  it("keeps one file per edit, edge and idempotency key in the documented layout", async () => {
    const storage = await openJsonFileStorage(dir);
    const edit = makeStatusEdit({ id: "5", statusId: "10" });
    const follow = makeFollow({ id: "20", accountId: "1", targetId: "2" });
    const request = makeFollow({ id: "21", accountId: "3", targetId: "1" });
    const mute = makeEdge({ id: "22", accountId: "1", targetId: "10" });
    const key = makeIdempotency({ keyHash: "0123abcd" });
    await Promise.all([
      storage.statusEdits.put(edit),
      storage.follows.put(follow),
      storage.followRequests.put(request),
      storage.conversationMutes.put(mute),
      storage.idempotency.put(key),
    ]);
    assert.equal(await read("status-edits", "10", "5.json"), pretty(edit));
    assert.equal(await read("follows", "20.json"), pretty(follow));
    assert.equal(await read("follow-requests", "21.json"), pretty(request));
    assert.equal(await read("conversation-mutes", "22.json"), pretty(mute));
    assert.equal(await read("idempotency", "0123abcd.json"), pretty(key));

    // Replacing a pair's edge with a new id leaves only the new file; deleting leaves none.
    await storage.follows.put({ ...follow, id: "30" });
    assert.deepEqual(await readdir(join(dir, "follows")), ["30.json"]);
    await storage.follows.delete("1", "2");
    assert.deepEqual(await readdir(join(dir, "follows")), []);
    await storage.idempotency.prune("2100-01-01T00:00:00.000Z");
    assert.deepEqual(await readdir(join(dir, "idempotency")), []);
    await storage.close();
  });

  it("keeps the larger id when two files hold one pair, and removes the other", async () => {
    await mkdir(join(dir, "blocks"), { recursive: true });
    const older = makeEdge({ id: "90", accountId: "1", targetId: "2" });
    const newer = makeEdge({ id: "100", accountId: "1", targetId: "2" });
    const other = makeEdge({ id: "95", accountId: "1", targetId: "3" });
    for (const edge of [older, newer, other]) {
      await writeFile(join(dir, "blocks", `${edge.id}.json`), pretty({ ...edge, uri: null }));
    }
    const storage = await openJsonFileStorage(dir);
    assert.equal((await storage.blocks.get("1", "2"))?.id, "100");
    assert.deepEqual(
      (await storage.blocks.listFrom("1", { limit: 9 })).map((e) => e.id),
      ["100", "95"],
    );
    assert.equal(await storage.blocks.countTo("2"), 1);
    assert.deepEqual((await readdir(join(dir, "blocks"))).sort(), ["100.json", "95.json"]);
    await storage.close();
  });

  it("sets aside an edit filed under another status", async () => {
    const file = join(dir, "status-edits", "11", "5.json");
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, pretty(makeStatusEdit({ id: "5", statusId: "10" })));
    const storage = await openJsonFileStorage(dir);
    await assert.rejects(readdir(join(dir, "status-edits", "11", "5.json")), { code: "ENOENT" });
    const [moved] = await readdir(join(dir, "quarantine", "status-edits", "11"));
    assert.match(moved ?? "", /^5\.json\./);
    await storage.close();
  });

  it("refuses unsafe keys rather than writing outside the folder", async () => {
    const storage = await openJsonFileStorage(dir);
    await assert.rejects(storage.idempotency.put(makeIdempotency({ keyHash: "../x" })), /Unsafe/);
    await assert.rejects(
      storage.statuses
        .put(makeStatus({ id: "1", accountId: "1" }))
        .then(() => storage.statusEdits.put(makeStatusEdit({ id: "2", statusId: "../1" }))),
      /Unsafe/,
    );
    await storage.close();
  });
});
