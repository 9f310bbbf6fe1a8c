// The daily key–value prune: scheduled at start, it removes the entries that expired by the
// server's clock and keeps the others, then schedules its next run.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { KV_PRUNE_JOB } from "../../src/services/maintenance/kv-prune.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";

const HOUR = 3600_000;

async function waitingPrunes(server: TestServer) {
  const jobs = await Promise.all(
    KV_PRUNE_JOB.ids.map((id) => server.wren.ctx.storage.jobs.get(id)),
  );
  return jobs.filter((job) => job !== undefined && job.failedAt === null);
}

describe("kv prune schedule", () => {
  let server: TestServer;
  let clock: MovableClock;

  before(async () => {
    clock = movableClock();
    server = await startTestServer({}, { clock });
  });
  after(() => server.close());

  it("removes expired entries when it falls due, keeps live ones, and reschedules", async () => {
    const { kv } = server.wren.ctx.storage;
    const start = clock.now().getTime();
    const at = (ms: number) => new Date(start + ms).toISOString();
    await kv.set({ key: ["test", "stale"], value: 1, expiresAt: at(HOUR) });
    await kv.set({ key: ["test", "fresh"], value: 2, expiresAt: at(48 * HOUR) });
    await kv.set({ key: ["test", "forever"], value: 3, expiresAt: null });

    const [first, ...others] = await waitingPrunes(server);
    assert.equal(others.length, 0);
    assert.equal(first?.runAt, at(KV_PRUNE_JOB.intervalMs));

    // Expired but not yet due: still stored (readers skip it by expiry).
    clock.advance(2 * HOUR);
    await server.wren.jobs.runDue();
    assert.ok(await kv.get(["test", "stale"]));

    clock.advance(KV_PRUNE_JOB.intervalMs);
    await server.wren.jobs.runDue();
    assert.equal(await kv.get(["test", "stale"]), undefined);
    assert.deepEqual((await kv.get(["test", "fresh"]))?.value, 2);
    assert.deepEqual((await kv.get(["test", "forever"]))?.value, 3);

    const [next, ...more] = await waitingPrunes(server);
    assert.equal(more.length, 0);
    assert.notEqual(next?.id, first?.id);
    assert.equal(
      next?.runAt,
      new Date(clock.now().getTime() + KV_PRUNE_JOB.intervalMs).toISOString(),
    );

    // A restart keeps exactly that one run waiting.
    await server.restart();
    assert.deepEqual(await waitingPrunes(server), [next]);
  });
});
