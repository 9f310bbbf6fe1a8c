// What happens after a status is deleted, on real files and a clock the test moves:
// - a kill between flagging the status and flagging its boosts (here: the boost's file put back
//   as it was, which is what the kill leaves) is finished by the queued job after the restart,
//   so the booster's statuses_count is right again;
// - after the grace period, the deleted status's words and edit history leave the disk while
//   its tombstone stays (the API keeps answering 404);
// - statuses deleted with no purge queued (by a Wren older than the purge job) are purged by
//   the weekly sweep once their grace period is over.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DELETE_REBLOGS_DELAY_MS } from "../../src/services/statuses/delete-reblogs.ts";
import { DELETED_CONTENT_GRACE_MS } from "../../src/services/statuses/purge-deleted-content.ts";
import {
  PURGE_SWEEP_JOB,
  sweepDeletedContent,
} from "../../src/services/statuses/purge-deleted-sweep.ts";
import { SNAPSHOT_FILE } from "../../src/storage/json-file/status-snapshot.ts";
import type { JsonFileStatusStore } from "../../src/storage/json-file/status-store.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { movableClock } from "../polls/helpers.ts";
import { call, post } from "../statuses/helpers.ts";

const STATUSES = "/api/v1/statuses";

describe("after a status is deleted", () => {
  const clock = movableClock();
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer({}, { clock });
    [alice, bob] = await createUsers(server, "alice", "bob");
  });
  after(() => server.close());

  const statusesCount = async (user: TestUser) =>
    (await call(server, "GET", `/api/v1/accounts/${user.account.id}`)).statuses_count;
  const fileOf = (accountId: string, id: string) =>
    join(server.dataDir, "statuses", accountId, `${id}.json`);
  /** A status file as it is once the writes answered so far have their files (ADR 0084). */
  const readStatusFile = async (path: string) => {
    await (server.wren.ctx.storage.statuses as JsonFileStatusStore).filed();
    return readFile(path, "utf8");
  };

  it("a kill before its boosts were flagged is finished after the restart", async () => {
    const original = await post(server, alice, { status: "boost me" });
    const boost = await call(server, "POST", `${STATUSES}/${original.id}/reblog`, {
      token: bob.token,
    });
    assert.equal(await statusesCount(bob), 1);
    const boostFile = fileOf(bob.account.id, boost.id);
    const liveBoost = await readStatusFile(boostFile);

    await call(server, "DELETE", `${STATUSES}/${original.id}`, { token: alice.token });
    await server.stop();
    // What a kill after the status's flag and before the boost's leaves on disk (a killed
    // server writes no status snapshot either).
    await writeFile(boostFile, liveBoost);
    await rm(join(server.dataDir, SNAPSHOT_FILE));
    await server.start();
    assert.equal(await statusesCount(bob), 1, "the kill's state, as the restart reads it");

    clock.advance(DELETE_REBLOGS_DELAY_MS);
    await server.wren.jobs.runDue();
    assert.equal(await statusesCount(bob), 0);
    assert.equal(JSON.parse(await readStatusFile(boostFile)).deleted, true);
  });

  it("its content and edit history are purged after the grace period, the tombstone kept", async () => {
    const words = "a secret first draft";
    const status = await post(server, alice, { status: words, spoiler_text: "cw words" });
    await call(server, "PUT", `${STATUSES}/${status.id}`, {
      token: alice.token,
      json: { status: "a second secret" },
    });
    const editsDir = join(server.dataDir, "status-edits", status.id);
    assert.ok((await readdir(editsDir)).length > 0);
    await call(server, "DELETE", `${STATUSES}/${status.id}`, { token: alice.token });
    const file = fileOf(alice.account.id, status.id);

    // Within the grace period the content stays (moderation, redraft).
    clock.advance(DELETED_CONTENT_GRACE_MS - 60_000);
    await server.wren.jobs.runDue();
    assert.match(await readStatusFile(file), /secret/);

    clock.advance(60_000);
    await server.wren.jobs.runDue();
    const stored = await readStatusFile(file);
    assert.doesNotMatch(stored, /secret|cw words/);
    const tombstone = JSON.parse(stored);
    assert.equal(tombstone.deleted, true);
    assert.equal(tombstone.id, status.id);
    assert.equal(tombstone.uri, status.uri);
    assert.equal(existsSync(editsDir) ? (await readdir(editsDir)).length : 0, 0);
    await call(server, "GET", `${STATUSES}/${status.id}`, { token: alice.token }, 404);
  });

  it("statuses deleted with no purge queued (an older Wren) are purged by the weekly sweep", async () => {
    const storage = server.wren.ctx.storage;
    const now = clock.now().getTime();
    const DAY = 24 * 3600_000;
    /** Flags the status deleted the way an older Wren did: no purge job queued. */
    const deleteAsBefore = async (words: string, deletedAt: string | null) => {
      const posted = await post(server, alice, { status: words });
      await call(server, "PUT", `${STATUSES}/${posted.id}`, {
        token: alice.token,
        json: { status: `${words}, edited` },
      });
      const stored = await storage.statuses.get(posted.id);
      assert.ok(stored);
      await storage.statuses.put({ ...stored, deleted: true, deletedAt });
      return posted.id as string;
    };
    const purged = async (id: string) => {
      const stored = await readStatusFile(fileOf(alice.account.id, id));
      const editsDir = join(server.dataDir, "status-edits", id);
      const edits = existsSync(editsDir) ? (await readdir(editsDir)).length : 0;
      assert.equal(JSON.parse(stored).deleted, true, "the tombstone stays");
      return !/secret/.test(stored) && edits === 0;
    };
    const old = await deleteAsBefore("an old secret", new Date(now - 30 * DAY).toISOString());
    const undated = await deleteAsBefore("an undated secret", null);
    const recent = await deleteAsBefore("a recent secret", new Date(now - DAY).toISOString());

    const result = await sweepDeletedContent(server.wren.ctx);
    assert.ok(result.purged >= 2 && result.failed === 0, JSON.stringify(result));
    assert.equal(await purged(old), true);
    assert.equal(await purged(undated), true);
    assert.equal(await purged(recent), false, "still within its grace period");

    // The sweep is a job the server keeps scheduled: within a week it comes round again.
    clock.advance(PURGE_SWEEP_JOB.intervalMs);
    await server.wren.jobs.runDue();
    assert.equal(await purged(recent), true);
    await call(server, "GET", `${STATUSES}/${recent}`, { token: alice.token }, 404);
  });
});
