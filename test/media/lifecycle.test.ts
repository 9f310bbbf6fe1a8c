// What happens to media over time, driven by a clock the test moves and runDue(): unattached
// uploads go after a day (the hourly "media.cleanup" job, one schedule across restarts), and the
// media of a deleted status stay for a redraft, then go with the status once the deletion is final.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { MediaAttachment } from "../../src/domain/media.ts";
import {
  MEDIA_CLEANUP_INTERVAL_MS,
  MEDIA_CLEANUP_JOB,
  MEDIA_CLEANUP_JOB_IDS,
} from "../../src/services/media/cleanup-schedule.ts";
import { MEDIA_PURGE_DELETED_JOB } from "../../src/services/media/purge-deleted-status-media.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";
import { call, type Json } from "../statuses/helpers.ts";
import { isKept, storeMedia } from "./stored-media.ts";

const HOUR = 3600_000;
const FAR_FUTURE = "2999-01-01T00:00:00.000Z";

/** The waiting (unfailed) jobs of one type, whenever due. */
async function waitingJobs(server: TestServer, type: string) {
  const all = await server.wren.ctx.storage.jobs.due(FAR_FUTURE, 10_000);
  return all.filter((job) => job.type === type);
}

describe("media lifecycle", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function setUp(): Promise<{ server: TestServer; clock: MovableClock; alice: TestUser }> {
    const clock = movableClock();
    server = await startTestServer({}, { clock });
    return { server, clock, alice: await createUserWithToken(server, "alice") };
  }

  /** Posts a status through the API, then attaches `media` to it in storage. */
  async function postWithMedia(s: TestServer, user: TestUser, media: MediaAttachment[]) {
    const posted: Json = await call(s, "POST", "/api/v1/statuses", {
      token: user.token,
      json: { status: "With pictures" },
    });
    const ctx = s.wren.ctx;
    const status = await ctx.storage.statuses.get(posted.id);
    assert.ok(status);
    await ctx.storage.statuses.put({ ...status, mediaIds: media.map((m) => m.id) });
    for (const m of media) await ctx.storage.media.put({ ...m, statusId: status.id });
    return status.id;
  }

  it("removes unattached uploads once they are a day old, on the hourly run", async () => {
    const { server, clock, alice } = await setUp();
    const old = await storeMedia(server, alice.account.id);
    const attached = await storeMedia(server, alice.account.id);
    await postWithMedia(server, alice, [attached]);
    clock.advance(20 * HOUR);
    const younger = await storeMedia(server, alice.account.id);

    // 23 hours after the first upload: the hourly runs so far found nothing old enough.
    clock.advance(3 * HOUR);
    await server.wren.jobs.runDue();
    assert.equal(await isKept(server, old), true);

    // 25 hours: the first upload is gone, files and record; the others stay.
    clock.advance(2 * HOUR);
    await server.wren.jobs.runDue();
    assert.equal(await isKept(server, old), false);
    assert.equal(await isKept(server, attached), true);
    assert.equal(await isKept(server, younger), true);

    // A day after the younger one was uploaded, it goes too; the attached one never does.
    clock.advance(20 * HOUR);
    await server.wren.jobs.runDue();
    assert.equal(await isKept(server, younger), false);
    assert.equal(await isKept(server, attached), true);
  });

  it("keeps exactly one cleanup scheduled across runs, restarts and a repeated run", async () => {
    const { server, clock, alice } = await setUp();
    const start = clock.now().getTime();
    const [first, ...others] = await waitingJobs(server, MEDIA_CLEANUP_JOB);
    assert.equal(others.length, 0);
    assert.equal(first?.runAt, new Date(start + MEDIA_CLEANUP_INTERVAL_MS).toISOString());

    // A restart finds the waiting job and adds none.
    await server.restart();
    assert.deepEqual(await waitingJobs(server, MEDIA_CLEANUP_JOB), [first]);

    // Each run schedules the next one an hour later, under the other fixed id.
    clock.advance(HOUR);
    assert.equal(await server.wren.jobs.runDue(), 1);
    const [second, ...more] = await waitingJobs(server, MEDIA_CLEANUP_JOB);
    assert.equal(more.length, 0);
    assert.notEqual(second?.id, first?.id);
    assert.equal(second?.runAt, new Date(start + 2 * HOUR).toISOString());

    // Downtime: the overdue run happens after the restart, still once.
    clock.advance(5 * HOUR);
    await server.restart();
    assert.equal((await waitingJobs(server, MEDIA_CLEANUP_JOB)).length, 1);
    assert.equal(await server.wren.jobs.runDue(), 1);
    assert.equal((await waitingJobs(server, MEDIA_CLEANUP_JOB)).length, 1);

    // A crash after a run scheduled its successor but before its own record was removed leaves
    // both ids waiting: the restart keeps the earlier one only.
    const [current] = await waitingJobs(server, MEDIA_CLEANUP_JOB);
    assert.ok(current);
    const [a, b] = MEDIA_CLEANUP_JOB_IDS;
    const overdue = { ...current, id: current.id === a ? b : a, runAt: clock.now().toISOString() };
    await server.wren.ctx.storage.jobs.put(overdue);
    assert.equal((await waitingJobs(server, MEDIA_CLEANUP_JOB)).length, 2);
    await server.restart();
    assert.deepEqual(await waitingJobs(server, MEDIA_CLEANUP_JOB), [overdue]);
    assert.equal(await server.wren.jobs.runDue(), 1);
    assert.equal((await waitingJobs(server, MEDIA_CLEANUP_JOB)).length, 1);

    // The work itself still happens on that schedule.
    const upload = await storeMedia(server, alice.account.id);
    clock.advance(25 * HOUR);
    await server.wren.jobs.runDue();
    assert.equal(await isKept(server, upload), false);
  });

  it("starts a new schedule when the waiting cleanup had given up", async () => {
    const { server } = await setUp();
    const [job] = await waitingJobs(server, MEDIA_CLEANUP_JOB);
    assert.ok(job);
    await server.wren.ctx.storage.jobs.put({ ...job, failedAt: job.runAt, lastError: "boom" });
    assert.equal((await waitingJobs(server, MEDIA_CLEANUP_JOB)).length, 0);
    await server.restart();
    assert.equal((await waitingJobs(server, MEDIA_CLEANUP_JOB)).length, 1);
  });

  it("keeps a deleted status's media for a day, across a restart, then removes them", async () => {
    const { server, clock, alice } = await setUp();
    const media = [
      await storeMedia(server, alice.account.id),
      await storeMedia(server, alice.account.id, { uploadKey: null, customPreviewKey: null }),
    ];
    const statusId = await postWithMedia(server, alice, media);
    const other = await storeMedia(server, alice.account.id);
    const otherStatusId = await postWithMedia(server, alice, [other]);

    await call(server, "DELETE", `/api/v1/statuses/${statusId}`, { token: alice.token });
    const [purge, ...extra] = await waitingJobs(server, MEDIA_PURGE_DELETED_JOB);
    assert.equal(extra.length, 0);
    assert.deepEqual(purge?.payload, { statusId });
    assert.equal(purge?.runAt, new Date(clock.now().getTime() + 24 * HOUR).toISOString());

    // Within the redraft window nothing goes (the unattached cleanup leaves attached media be).
    clock.advance(23 * HOUR);
    await server.wren.jobs.runDue();
    for (const m of media) assert.equal(await isKept(server, m), true);

    await server.restart();
    clock.advance(2 * HOUR);
    await server.wren.jobs.runDue();
    for (const m of media) assert.equal(await isKept(server, m), false);
    // Another status's media are not touched, and the job is done with.
    assert.equal(await isKept(server, other), true);
    assert.ok(await server.wren.ctx.storage.statuses.get(otherStatusId));
    assert.equal((await waitingJobs(server, MEDIA_PURGE_DELETED_JOB)).length, 0);
  });

  it("leaves the media that a redraft took over, and schedules nothing for media-less statuses", async () => {
    const { server, clock, alice } = await setUp();
    const [kept, dropped] = [
      await storeMedia(server, alice.account.id),
      await storeMedia(server, alice.account.id),
    ];
    assert.ok(kept && dropped);
    const statusId = await postWithMedia(server, alice, [kept, dropped]);
    await call(server, "DELETE", `/api/v1/statuses/${statusId}`, { token: alice.token });

    // The redraft posts one of the old attachments again: it now belongs to the new status.
    const redraftId = await postWithMedia(server, alice, [kept]);
    clock.advance(25 * HOUR);
    await server.wren.jobs.runDue();
    assert.equal(await isKept(server, kept), true);
    assert.equal((await server.wren.ctx.storage.media.get(kept.id))?.statusId, redraftId);
    assert.equal(await isKept(server, dropped), false);

    // Deleting a status without media schedules no purge.
    const plain: Json = await call(server, "POST", "/api/v1/statuses", {
      token: alice.token,
      json: { status: "Just words" },
    });
    await call(server, "DELETE", `/api/v1/statuses/${plain.id}`, { token: alice.token });
    assert.equal((await waitingJobs(server, MEDIA_PURGE_DELETED_JOB)).length, 0);
  });
});
