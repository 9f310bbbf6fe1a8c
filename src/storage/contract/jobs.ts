// Storage contract: background jobs, claimed by due time under leases (one runner at a time
// per job; a dead runner's job comes back when its lease passes).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Job } from "../../domain/job.ts";
import { type ContractContext, ids, sorted, tryToMutate } from "./context.ts";
import { CREATED, makeAccount, makeFavourite, makeStatus } from "./fixtures.ts";
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

    it("removes failures older than a time, oldest first, up to a limit", async () => {
      await putAll([
        failedJob("10", 20),
        failedJob("11", 40),
        failedJob("12", 30),
        failedJob("14", 50),
        makeJob({ id: "13", runAt: at(1) }),
      ]);
      assert.equal(await store().deleteFailedBefore(at(45), 2), 2);
      assert.deepEqual(ids(await store().failed(10)), ["14", "11"]);
      assert.equal(await store().deleteFailedBefore(at(45), 10), 1);
      assert.equal(await store().deleteFailedBefore(at(45), 10), 0);
      assert.equal(await store().deleteFailedBefore(at(59), 0), 0);
      assert.deepEqual(ids(await store().failed(10)), ["14"]);
      // A waiting job is never a failure, however old its time.
      assert.ok(await store().get("13"));
    });

    it("claims due unfailed jobs, earliest first then by id, each for one owner", async () => {
      await putAll([
        makeJob({ id: "10", runAt: at(30) }),
        makeJob({ id: "11", runAt: at(10) }),
        makeJob({ id: "9", runAt: at(20) }),
        makeJob({ id: "12", runAt: at(10) }),
        makeJob({ id: "13", runAt: at(40) }),
        failedJob("14", 5),
      ]);
      assert.deepEqual(await store().claim(at(30), 0, at(45), "a"), []);
      assert.deepEqual(ids(await store().claim(at(30), 2, at(45), "a")), ["11", "12"]);
      // Claimed ones are not due for anyone (nor for their owner) until the lease passes.
      assert.deepEqual(ids(await store().claim(at(30), 10, at(45), "b")), ["9", "10"]);
      assert.deepEqual(await store().claim(at(39), 10, at(50), "a"), []);
      // A look is not a claim: due() still lists them.
      assert.deepEqual(ids(await store().due(at(30), 10)), ["11", "12", "9", "10"]);
      // The lease passed (lease end <= now counts as passed): 13 is due too by then.
      assert.deepEqual(ids(await store().claim(at(45), 10, at(59), "c")), [
        "11",
        "12",
        "9",
        "10",
        "13",
      ]);
      // Times compare as instants, not as text.
      await store().put(makeJob({ id: "15", runAt: at(1) }));
      assert.deepEqual(await store().claim("2025-01-01T01:00:30+01:00", 10, at(59), "d"), []);
      assert.deepEqual(ids(await store().claim("2025-01-01T01:01:00+01:00", 10, at(59), "d")), [
        "15",
      ]);
    });

    it("hands claimed jobs out as copies", async () => {
      await store().put(makeJob({ id: "10", runAt: at(1), payload: { n: 1 } }));
      const [job] = await store().claim(at(59), 1, at(59), "a");
      assert.ok(job);
      tryToMutate(() => {
        job.payload.n = 2;
        job.attempts = 5;
      });
      assert.deepEqual(
        await store().get("10"),
        makeJob({ id: "10", runAt: at(1), payload: { n: 1 } }),
      );
    });

    it("never gives one job to two concurrent claims", async () => {
      await putAll(
        Array.from({ length: 30 }, (_, n) => makeJob({ id: String(100 + n), runAt: at(n) })),
      );
      const claims = await Promise.all(
        ["a", "b", "c", "d", "e", "f"].map((owner) => store().claim(at(30), 7, at(40), owner)),
      );
      const all = claims.flatMap(ids);
      assert.equal(all.length, 30);
      assert.equal(new Set(all).size, 30);
    });

    it("lets only the owner finish a job, and not once another claimed it", async () => {
      await putAll([
        makeJob({ id: "10", runAt: at(1) }),
        makeJob({ id: "11", runAt: at(2) }),
        makeJob({ id: "12", runAt: at(3) }),
      ]);
      assert.deepEqual(ids(await store().claim(at(5), 10, at(10), "a")), ["10", "11", "12"]);
      assert.equal(await store().complete("10", "b"), false);
      assert.ok(await store().get("10"));
      assert.equal(await store().complete("10", "a"), true);
      assert.equal(await store().get("10"), undefined);
      assert.equal(await store().complete("10", "a"), false);

      // A retry by its owner: written back, unclaimed, due at its new time.
      const retry = { ...makeJob({ id: "11", runAt: at(20) }), attempts: 1, lastError: "boom" };
      assert.equal(await store().reschedule({ ...retry, attempts: 9 }, "b"), false);
      assert.equal(await store().reschedule(retry, "a"), true);
      assert.deepEqual(await store().get("11"), retry);
      assert.equal(await store().nextRunAt(), at(10));
      assert.deepEqual(await store().claim(at(9), 10, at(30), "b"), []);

      // 12's lease passed and b took it (with 11, due by then): a's late outcome is refused.
      assert.deepEqual(ids(await store().claim(at(20), 10, at(30), "b")), ["12", "11"]);
      assert.equal(await store().complete("12", "a"), false);
      assert.equal(
        await store().reschedule({ ...makeJob({ id: "12", runAt: at(3) }), failedAt: at(11) }, "a"),
        false,
      );
      assert.equal((await store().get("12"))?.failedAt, null);
      const failed = { ...makeJob({ id: "12", runAt: at(3) }), attempts: 8, failedAt: at(12) };
      assert.equal(await store().reschedule(failed, "b"), true);
      assert.deepEqual(ids(await store().failed(10)), ["12"]);
      assert.deepEqual(await store().claim(at(29), 10, at(59), "c"), []);
    });

    it("finishes jobs completed at once, each for its own owner", async () => {
      await putAll([10, 11, 12, 13].map((n) => makeJob({ id: String(n), runAt: at(1) })));
      await store().claim(at(5), 2, at(20), "a");
      await store().claim(at(5), 2, at(20), "b");
      const done = await Promise.all([
        store().complete("10", "a"),
        store().complete("12", "b"),
        store().complete("11", "b"),
        store().complete("13", "b"),
        store().complete("13", "b"),
        store().complete("14", "a"),
      ]);
      // 11 is a's; 13 is done once; 14 never was.
      assert.deepEqual(done, [true, true, false, true, false, false]);
      assert.deepEqual(ids(await store().due(at(59), 10)), ["11"]);
    });

    it("writes the once-records a job's work left with its end, its claim held or lost", async () => {
      const key = (n: number) => ["wren", "inboxDone", `https://remote.example/a/${n}`, "d"];
      const until = "2030-01-02T00:00:00.000Z";
      await putAll([10, 11, 12].map((n) => makeJob({ id: String(n), runAt: at(1) })));
      assert.equal(ids(await store().claim(at(5), 10, at(20), "a")).length, 3);
      const ended = await Promise.all([
        // Gathered with each other: the same record twice, and one with none.
        store().complete("10", "a", [{ key: key(1), until }]),
        store().complete("11", "a", [
          { key: key(1), until },
          { key: key(2), until },
        ]),
        store().complete("12", "b", [{ key: key(3), until }]),
        store().reschedule(makeJob({ id: "12", runAt: at(30) }), "b", [{ key: key(4), until }]),
      ]);
      // b never held 12; its work was done all the same.
      assert.deepEqual(ended, [true, true, false, false]);
      for (const n of [1, 2, 3, 4]) {
        assert.deepEqual(await t.storage.kv.get(key(n)), {
          key: key(n),
          value: true,
          expiresAt: until,
        });
      }
      assert.equal(
        await store().reschedule(makeJob({ id: "12", runAt: at(30) }), "a", [
          { key: key(5), until },
        ]),
        true,
      );
      assert.equal((await t.storage.kv.get(key(5)))?.value, true);
      assert.equal((await store().get("12"))?.runAt, at(30));
    });

    it("renews only the owner's leases", async () => {
      await putAll([makeJob({ id: "10", runAt: at(1) }), makeJob({ id: "11", runAt: at(1) })]);
      await store().claim(at(1), 1, at(10), "a");
      await store().claim(at(1), 1, at(10), "b");
      assert.deepEqual(await store().renew(["10", "11", "12"], "a", at(20)), ["10"]);
      assert.deepEqual(ids(await store().claim(at(10), 10, at(30), "c")), ["11"]);
      assert.deepEqual(await store().claim(at(19), 10, at(30), "c"), []);
      assert.deepEqual(ids(await store().claim(at(20), 10, at(30), "c")), ["10"]);
      assert.deepEqual(await store().renew(["10"], "a", at(40)), []);
    });

    it("says when a claimed job comes back, and a put ends a claim", async () => {
      await putAll([makeJob({ id: "10", runAt: at(1) }), makeJob({ id: "11", runAt: at(30) })]);
      await store().claim(at(5), 10, at(20), "a");
      assert.equal(await store().nextRunAt(), at(20));
      await store().put(makeJob({ id: "10", runAt: at(25), attempts: 3 }));
      assert.equal(await store().nextRunAt(), at(25));
      assert.equal(await store().complete("10", "a"), false);
      assert.equal((await store().get("10"))?.attempts, 3);
      assert.deepEqual(ids(await store().claim(at(25), 10, at(40), "b")), ["10"]);
      assert.equal(await store().nextRunAt(), at(30));
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().complete("10", "b"), false);
    });

    it("does not move a claimed job of a group", async () => {
      await putAll([
        makeJob({ id: "10", runAt: at(5), group: "held:a" }),
        makeJob({ id: "11", runAt: at(50), group: "held:a" }),
      ]);
      await store().claim(at(5), 10, at(20), "a");
      assert.equal(await store().advanceGroup("held:a", at(6)), 1);
      assert.equal((await store().get("10"))?.runAt, at(5));
      assert.equal(await store().complete("10", "a"), true);
      assert.equal(await store().get("10"), undefined);
      assert.deepEqual(sorted(ids(await store().due(at(59), 10))), ["11"]);
    });

    it("gives a claimed job back after a restart once its lease passes", async () => {
      await store().put(makeJob({ id: "10", runAt: at(1) }));
      await store().claim(at(1), 10, at(20), "a");
      const reopened = await t.reopen();
      // A backend may give it back at once (json-file: the data directory's lock proves its
      // claimer gone); none may keep it past its lease.
      assert.deepEqual(ids(await reopened.jobs.claim(at(20), 10, at(40), "b")), ["10"]);
      assert.equal(await reopened.jobs.complete("10", "b"), true);
      assert.equal(await reopened.jobs.nextRunAt(), null);
    });

    it("stores a job around the write it goes with, whatever that write does", async () => {
      const s = t.storage;
      // Around a status put (PostgreSQL: in its statement), an edge put, a write that reads
      // and writes other stores, writes at once, and one that makes no store call.
      const status = makeStatus({ id: "30", accountId: "1" });
      assert.equal(
        await store().putAround(makeJob({ id: "10" }), () => s.statuses.put(status)),
        undefined,
      );
      const favourite = makeFavourite({ id: "31", accountId: "1", targetId: "30" });
      await store().putAround(makeJob({ id: "11" }), () => s.favourites.put(favourite));
      const answer = await store().putAround(makeJob({ id: "12" }), async () => {
        await s.accounts.get("1");
        await s.accounts.put(makeAccount({ id: "1" }));
        await s.statuses.put(makeStatus({ id: "32", accountId: "1" }));
        return "done";
      });
      assert.equal(answer, "done");
      await store().putAround(makeJob({ id: "13" }), () =>
        Promise.all([
          s.statuses.put(makeStatus({ id: "33", accountId: "1" })),
          s.favourites.put(makeFavourite({ id: "34", accountId: "1", targetId: "33" })),
          s.statuses.put(makeStatus({ id: "35", accountId: "1" })),
        ]),
      );
      await store().putAround(makeJob({ id: "14" }), async () => "nothing");
      assert.deepEqual(ids(await store().due(CREATED, 10)), ["10", "11", "12", "13", "14"]);
      assert.equal((await s.statuses.get("30"))?.id, "30");
      assert.equal((await s.favourites.get("1", "30"))?.id, "31");
      assert.deepEqual(
        [...(await s.statuses.getMany(["32", "33", "35"])).keys()],
        ["32", "33", "35"],
      );
    });

    it("keeps a job whose write failed after a change, and passes the failure on", async () => {
      const s = t.storage;
      const failing = store().putAround(makeJob({ id: "10" }), async () => {
        await s.statuses.put(makeStatus({ id: "30", accountId: "1" }));
        throw new Error("after the change");
      });
      await assert.rejects(failing, /after the change/);
      // The status is stored, so its job must be too.
      assert.equal((await s.statuses.get("30"))?.id, "30");
      assert.deepEqual(ids(await store().due(CREATED, 10)), ["10"]);
      await assert.rejects(store().putAround(makeJob({ id: "11", runAt: "soon" }), async () => 1));
      assert.equal(await store().get("11"), undefined);
    });

    it("stores jobs put at once as it stores each, ending a claim on one replaced", async () => {
      await store().put(makeJob({ id: "10", runAt: at(1) }));
      assert.deepEqual(ids(await store().claim(at(5), 10, at(50), "a")), ["10"]);
      const many = [
        makeJob({ id: "10", runAt: at(2), attempts: 2 }),
        makeJob({ id: "11", runAt: at(3), group: "held:a", orderingKey: "k" }),
        makeJob({ id: "12", runAt: at(4), payload: { text: "twelve" } }),
        failedJob("13", 6),
      ];
      await putAll(many);
      for (const job of many) assert.deepEqual(await store().get(job.id), job);
      assert.deepEqual(ids(await store().failed(10)), ["13"]);
      // The replaced job waits again: its claim by "a" ended.
      assert.equal(await store().complete("10", "a"), false);
      assert.deepEqual(ids(await store().claim(at(5), 10, at(50), "b")), ["10", "11", "12"]);
      assert.equal(await store().advanceGroup("held:a", at(1)), 0);
      assert.equal(await store().nextRunAt(), at(50));
    });

    it("reads jobs that name a shared part back whole, claimed, listed or rescheduled", async () => {
      const shared = { activity: { id: "https://h.example/1", content: "é".repeat(3_000) } };
      const jobs = ["10", "11", "12"].map((id) =>
        makeJob({ id, runAt: at(1), shared: "fan-1", payload: { message: { id }, shared } }),
      );
      const alone = makeJob({ id: "13", runAt: at(2), payload: { message: { id: "13" } } });
      await putAll([...jobs, alone]);
      for (const job of [...jobs, alone]) assert.deepEqual(await store().get(job.id), job);
      const claimed = await store().claim(at(5), 2, at(50), "a");
      assert.deepEqual(claimed, jobs.slice(0, 2));
      assert.equal(await store().complete("10", "a"), true);
      const failed = { ...jobs[1], attempts: 8, lastError: "boom", failedAt: at(3) } as Job;
      assert.equal(await store().reschedule(failed, "a"), true);
      assert.deepEqual(await store().failed(10), [failed]);
      assert.deepEqual(await store().due(at(59), 10), [jobs[2], alone]);
      assert.deepEqual(await store().claim(at(5), 10, at(50), "b"), [jobs[2], alone]);
    });

    it("refuses only the job without a readable runAt among jobs put at once", async () => {
      const [ok, refused] = await Promise.allSettled([
        store().put(makeJob({ id: "10", runAt: at(1) })),
        store().put(makeJob({ id: "11", runAt: "soon" })),
        store().put(makeJob({ id: "12", runAt: at(2) })),
      ]);
      assert.deepEqual([ok?.status, refused?.status], ["fulfilled", "rejected"]);
      assert.deepEqual(ids(await store().due(at(59), 10)), ["10", "12"]);
    });

    it("refuses a job without a readable runAt", async () => {
      await assert.rejects(store().put(makeJob({ id: "10", runAt: "soon" })));
      assert.equal(await store().get("10"), undefined);
    });
  });
}
