// Scheduled statuses survive a restart and publish on time: the server is stopped and started
// again on the same data (directory or database) while a status waits, and the clock (which the
// test moves) passes its time while the server is down or after it is back. Nothing here calls
// runDue: the restarted server's own job runner publishes it.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { eventually } from "../helpers/federation.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { storeMedia } from "../media/stored-media.ts";
import { MINUTE, movableClock } from "../polls/helpers.ts";
import { call, type Json, post } from "./helpers.ts";

const START = "2030-01-01T00:00:00.000Z";
const inMinutes = (minutes: number) => new Date(Date.parse(START) + minutes * MINUTE).toISOString();

describe("scheduled statuses across a restart", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const statusesOf = (s: TestServer, user: TestUser): Promise<Json[]> =>
    call(s, "GET", `/api/v1/accounts/${user.account.id}/statuses`, { token: user.token });

  it("publishes, with its media and poll, once the server is back after its time passed", async () => {
    const clock = movableClock(START);
    const s = await startTestServer({}, { clock });
    server = s;
    const alice = await createUserWithToken(s, "alice");
    const picture = await storeMedia(s, alice.account.id);
    const withMedia = await post(s, alice, {
      status: "Picture while I was away",
      media_ids: [picture.id],
      scheduled_at: inMinutes(30),
    });
    const withPoll = await post(s, alice, {
      status: "Vote while I was away",
      poll: { options: ["yes", "no"], expires_in: 3600 },
      scheduled_at: inMinutes(45),
    });
    const later = await post(s, alice, { status: "Tomorrow", scheduled_at: inMinutes(24 * 60) });

    await s.stop();
    clock.advance(60 * MINUTE);
    await s.start();

    const published = await eventually(async () => {
      const list = await statusesOf(s, alice);
      assert.equal(list.length, 2);
      return list;
    });
    const byText = new Map(published.map((p) => [p.content, p]));
    const picturePost = byText.get("<p>Picture while I was away</p>");
    assert.deepEqual(
      picturePost?.media_attachments.map((m: Json) => m.id),
      [picture.id],
    );
    const pollPost = byText.get("<p>Vote while I was away</p>");
    assert.deepEqual(
      pollPost?.poll.options.map((o: Json) => o.title),
      ["yes", "no"],
    );
    // Each record goes just after its status is made (the publishing job's last step).
    await eventually(async () => {
      const remaining = await call(s, "GET", "/api/v1/scheduled_statuses", {
        token: alice.token,
      });
      assert.deepEqual(
        remaining.map((r: Json) => r.id),
        [later.id],
      );
    });
    for (const gone of [withMedia.id, withPoll.id]) {
      await call(s, "GET", `/api/v1/scheduled_statuses/${gone}`, { token: alice.token }, 404);
    }

    // Another restart publishes nothing twice.
    await s.restart();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await statusesOf(s, alice)).length, 2);
  });

  it("is not published early after a restart, and is at its time", async () => {
    const clock = movableClock(START);
    const s = await startTestServer({}, { clock });
    server = s;
    const alice = await createUserWithToken(s, "alice");
    const scheduled = await post(s, alice, { status: "On time", scheduled_at: inMinutes(20) });
    const moved = await post(s, alice, { status: "Moved", scheduled_at: inMinutes(20) });
    await call(s, "PUT", `/api/v1/scheduled_statuses/${moved.id}`, {
      token: alice.token,
      json: { scheduled_at: inMinutes(120) },
    });

    await s.restart();
    clock.advance(19 * MINUTE);
    s.wren.jobs.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await statusesOf(s, alice), []);

    clock.advance(MINUTE);
    s.wren.jobs.wake();
    const [published, ...others] = await eventually(async () => {
      const list = await statusesOf(s, alice);
      assert.equal(list.length, 1);
      return list;
    });
    assert.equal(others.length, 0);
    assert.equal(published.content, "<p>On time</p>");
    assert.equal(published.created_at, inMinutes(20));
    // The record goes just after the status is made (the publishing job's last step).
    await eventually(() =>
      call(s, "GET", `/api/v1/scheduled_statuses/${scheduled.id}`, { token: alice.token }, 404),
    );
    // The moved one keeps its new time across the restart.
    const kept = await call(s, "GET", `/api/v1/scheduled_statuses/${moved.id}`, {
      token: alice.token,
    });
    assert.equal(kept.scheduled_at, inMinutes(120));
  });
});
