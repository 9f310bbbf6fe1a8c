// The daily prune of failed jobs: scheduled at start, it removes the jobs that gave up more than
// the retention ago and keeps recent failures (an operator may still be looking at them).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  FAILED_JOB_RETENTION_DAYS,
  FAILED_JOBS_PRUNE_JOB,
} from "../../src/services/maintenance/failed-jobs-prune.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";

const DAY = 24 * 3600_000;

describe("failed jobs prune", () => {
  let server: TestServer;
  let clock: MovableClock;

  before(async () => {
    clock = movableClock();
    server = await startTestServer({}, { clock });
  });
  after(() => server.close());

  it("removes failures past the retention when it falls due, and reschedules", async () => {
    const { jobs } = server.wren.ctx.storage;
    const failedAt = (daysAgo: number) =>
      new Date(clock.now().getTime() - daysAgo * DAY).toISOString();
    const failure = (id: string, daysAgo: number) => ({
      id,
      type: "delivery",
      payload: {},
      runAt: failedAt(daysAgo),
      attempts: 8,
      lastError: "gone",
      failedAt: failedAt(daysAgo),
      createdAt: failedAt(daysAgo),
    });
    // After the coming run (a day from now): 30.5 days old, just past, and 29 days, kept.
    await jobs.put(failure("900", FAILED_JOB_RETENTION_DAYS - 0.5));
    await jobs.put(failure("901", FAILED_JOB_RETENTION_DAYS - 2));

    const waiting = async () =>
      (await Promise.all(FAILED_JOBS_PRUNE_JOB.ids.map((id) => jobs.get(id)))).filter(
        (job) => job !== undefined && job.failedAt === null,
      );
    const [first, ...others] = await waiting();
    assert.equal(others.length, 0);

    clock.advance(FAILED_JOBS_PRUNE_JOB.intervalMs);
    await server.wren.jobs.runDue();
    assert.equal(await jobs.get("900"), undefined);
    assert.equal((await jobs.get("901"))?.lastError, "gone");

    const [next, ...more] = await waiting();
    assert.equal(more.length, 0);
    assert.notEqual(next?.id, first?.id);
  });
});
