// Storage contract: background jobs, handed out by due time.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Job } from "../../domain/job.ts";
import { type ContractContext, ids } from "./context.ts";
import { makeJob } from "./fixtures-features.ts";

const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
const failedJob = (id: string, minute: number) =>
  makeJob({ id, attempts: 8, lastError: "boom", failedAt: at(minute) });

export function jobContract(t: ContractContext): void {
  describe("jobs", () => {
    const store = () => t.storage.jobs;
    const putAll = (jobs: Job[]) => Promise.all(jobs.map((j) => store().put(j)));

    it("round-trips, replaces and deletes", async () => {
      const job = makeJob({ id: "10", type: "poll.expire", payload: { pollId: "5" } });
      await store().put(job);
      assert.deepEqual(await store().get("10"), job);
      assert.equal(await store().get("11"), undefined);
      const retried = { ...job, attempts: 1, lastError: "boom", runAt: at(5) };
      await store().put(retried);
      assert.deepEqual(await store().get("10"), retried);
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.deepEqual(await store().due(at(59), 10), []);
      assert.equal(await store().nextRunAt(), null);
    });

    it("hands out unfailed jobs due by now, earliest first then by id", async () => {
      await putAll([
        makeJob({ id: "10", runAt: at(30) }),
        makeJob({ id: "11", runAt: at(10) }),
        makeJob({ id: "9", runAt: at(20) }),
        makeJob({ id: "12", runAt: at(10) }),
        makeJob({ id: "13", runAt: at(40) }),
        failedJob("14", 5),
      ]);
      assert.deepEqual(ids(await store().due(at(30), 10)), ["11", "12", "9", "10"]);
      assert.deepEqual(ids(await store().due(at(30), 2)), ["11", "12"]);
      assert.deepEqual(ids(await store().due(at(10), 10)), ["11", "12"]);
      assert.deepEqual(await store().due(at(9), 10), []);
      assert.deepEqual(await store().due(at(59), 0), []);
      assert.deepEqual(ids(await store().due(at(59), 10)), ["11", "12", "9", "10", "13"]);
      // Times compare as instants, not as text.
      assert.deepEqual(ids(await store().due("2025-01-01T01:10:00+01:00", 10)), ["11", "12"]);
    });

    it("says when the next unfailed job is due", async () => {
      assert.equal(await store().nextRunAt(), null);
      await putAll([makeJob({ id: "10", runAt: at(30) }), failedJob("11", 1)]);
      assert.equal(await store().nextRunAt(), at(30));
      await store().put(makeJob({ id: "12", runAt: at(20) }));
      assert.equal(await store().nextRunAt(), at(20));
      // A retry moves the job later; a failure takes it out of the waiting ones.
      await store().put(makeJob({ id: "12", runAt: at(50), attempts: 1 }));
      assert.equal(await store().nextRunAt(), at(30));
      await store().put(failedJob("10", 31));
      assert.equal(await store().nextRunAt(), at(50));
      await store().delete("12");
      assert.equal(await store().nextRunAt(), null);
      assert.deepEqual(await store().due(at(59), 10), []);
    });

    it("moves the waiting jobs of a group to an earlier time, and only those", async () => {
      await putAll([
        makeJob({ id: "10", runAt: at(30), group: "held:a" }),
        makeJob({ id: "11", runAt: at(50), group: "held:a" }),
        makeJob({ id: "12", runAt: at(5), group: "held:a" }),
        makeJob({ id: "13", runAt: at(40), group: "held:b" }),
        makeJob({ id: "14", runAt: at(40) }),
        { ...failedJob("15", 1), group: "held:a" },
      ]);
      await store().delete("11");
      // 12 is due already (the runner may hold it), 11 is gone, 15 failed: only 10 moves.
      assert.equal(await store().advanceGroup("held:a", at(10)), 1);
      assert.deepEqual(ids(await store().due(at(10), 10)), ["12", "10"]);
      assert.equal((await store().get("10"))?.group, "held:a");
      assert.equal(await store().get("11"), undefined);
      assert.equal((await store().get("13"))?.runAt, at(40));
      assert.equal((await store().get("15"))?.failedAt, at(1));
      assert.equal(await store().advanceGroup("held:a", at(10)), 0);
      assert.equal(await store().advanceGroup("nobody", at(10)), 0);
    });

    it("lists failed jobs, most recent failure first", async () => {
      await putAll([
        failedJob("10", 20),
        failedJob("11", 40),
        failedJob("12", 30),
        makeJob({ id: "13", runAt: at(1) }),
      ]);
      assert.deepEqual(ids(await store().failed(10)), ["11", "12", "10"]);
      assert.deepEqual(ids(await store().failed(2)), ["11", "12"]);
      assert.deepEqual(await store().failed(0), []);
      await store().delete("11");
      assert.deepEqual(ids(await store().failed(10)), ["12", "10"]);
    });

    it("refuses a job without a readable runAt", async () => {
      await assert.rejects(store().put(makeJob({ id: "10", runAt: "soon" })));
      assert.equal(await store().get("10"), undefined);
    });
  });
}
