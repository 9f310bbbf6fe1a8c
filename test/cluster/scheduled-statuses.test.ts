// Two Wren processes on one PostgreSQL database (two servers, each with its own pool and job
// runner) reach a scheduled status's time together: it is published exactly once, whichever
// runs it, and cancelling through one keeps the other from publishing. The clock is the test's.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { publishScheduledStatus } from "../../src/services/scheduled-statuses/publish-scheduled.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../src/storage/postgres/testing/temp-database.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MINUTE, movableClock } from "../polls/helpers.ts";
import { call, post } from "../statuses/helpers.ts";

const START = "2030-01-01T00:00:00.000Z";
const inMinutes = (minutes: number) => new Date(Date.parse(START) + minutes * MINUTE).toISOString();

describe("scheduled statuses with two processes on one database", () => {
  const clock = movableClock(START);
  let database: TempDatabase;
  let one: TestServer;
  let two: TestServer;
  let alice: TestUser;

  before(async () => {
    database = await createTempDatabase();
    const env = { WREN_STORAGE: "postgres", WREN_DATABASE_URL: database.url };
    one = await startTestServer(env, { clock });
    two = await startTestServer(env, { clock });
    alice = await createUserWithToken(one, "alice");
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  const countStatuses = () => one.wren.ctx.storage.statuses.countByAccount(alice.account.id);

  it("publishes once when both runners and both processes' handlers reach it together", async () => {
    const scheduled = await post(one, alice, { status: "Once", scheduled_at: inMinutes(10) });
    // The other process sees it, and its author's token.
    const seen = await call(two, "GET", `/api/v1/scheduled_statuses/${scheduled.id}`, {
      token: alice.token,
    });
    assert.equal(seen.params.text, "Once");

    clock.advance(10 * MINUTE);
    const results = await Promise.all([
      publishScheduledStatus(one.wren.ctx, scheduled.id),
      publishScheduledStatus(two.wren.ctx, scheduled.id),
      one.wren.jobs.runDue(),
      two.wren.jobs.runDue(),
    ]);
    const made = results.slice(0, 2).filter((r) => r !== undefined);
    assert.ok(made.length <= 1, "published by at most one handler call");
    assert.equal(await countStatuses(), 1);
    await call(
      two,
      "GET",
      `/api/v1/scheduled_statuses/${scheduled.id}`,
      { token: alice.token },
      404,
    );
  });

  it("is not published by one process once cancelled through the other", async () => {
    const before = await countStatuses();
    const scheduled = await post(one, alice, { status: "Cancelled", scheduled_at: inMinutes(30) });
    const res = await two.request(`/api/v1/scheduled_statuses/${scheduled.id}`, {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(res.status, 200);
    clock.advance(30 * MINUTE);
    await Promise.all([one.wren.jobs.runDue(), two.wren.jobs.runDue()]);
    assert.equal(await publishScheduledStatus(one.wren.ctx, scheduled.id), undefined);
    assert.equal(await countStatuses(), before);
  });
});
