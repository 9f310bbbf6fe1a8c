// Job puts gathered on PostgreSQL (job-store.ts, gathered-statements.ts, ADR 0057): puts asked
// while one is under way go in one insert, which the wake-up shows (one NOTIFY per statement:
// migration 0006's statement trigger); two puts of one id in one batch leave the later one, as
// one statement after the other would; a put with an unreadable time is refused alone.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { makeJob } from "../contract/fixtures-features.ts";
import { connectPostgres } from "./connect.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

describe("postgres job puts gathered", () => {
  const processes = twoProcessesOnOneDatabase(4);

  /** The job wake-ups heard once `puts` is done and `expected` have arrived (and a moment more). */
  async function wakeUpsOf(puts: () => Promise<unknown>, expected: number): Promise<number> {
    const listener = connectPostgres({ url: processes.database.url, poolMax: 1 });
    let wakeUps = 0;
    const listening = await listener.listen("wren_jobs", () => void wakeUps++);
    try {
      await puts();
      await eventually(
        async () => wakeUps,
        (n) => n >= expected,
      );
      await sleep(300);
      return wakeUps;
    } finally {
      await listening.unlisten();
      await listener.end();
    }
  }

  it("sends the puts asked while one is under way in one insert", async () => {
    const { a } = processes;
    const puts = () =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) => a.jobs.put(makeJob({ id: String(100 + i) }))),
      );
    // The first alone, the nine asked while it was sent together.
    assert.equal(await wakeUpsOf(puts, 2), 2);
    assert.equal((await a.jobs.due("2100-01-01T00:00:00.000Z", 100)).length, 10);
  });

  it("sends more than 1,000 puts asked at once in inserts of at most 1,000", async () => {
    const { a } = processes;
    // A fan-out's deliveries: all put at once. Bound parameters would run out near 13,000 rows
    // in one statement; the rows travel as arrays, 1,000 at most per insert.
    const puts = () =>
      Promise.all(
        Array.from({ length: 1_500 }, (_, i) => a.jobs.put(makeJob({ id: String(1_000 + i) }))),
      );
    // The first alone, then 1,000 and 499.
    assert.equal(await wakeUpsOf(puts, 3), 3);
    assert.equal((await a.jobs.due("2100-01-01T00:00:00.000Z", 2_000)).length, 1_500);
  });

  it("leaves the later of two puts of one id gathered together, and refuses a bad one alone", async () => {
    const { a } = processes;
    const [, , refused] = await Promise.allSettled([
      a.jobs.put(makeJob({ id: "1" })),
      a.jobs.put(makeJob({ id: "2", payload: { n: 1 } })),
      a.jobs.put(makeJob({ id: "3", runAt: "not a time" })),
      a.jobs.put(makeJob({ id: "2", payload: { n: 2 } })),
    ]);
    assert.equal(refused?.status, "rejected");
    assert.deepEqual((await a.jobs.get("2"))?.payload, { n: 2 });
    assert.ok(await a.jobs.get("1"));
    assert.equal(await a.jobs.get("3"), undefined);
  });
});
