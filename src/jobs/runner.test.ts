// The job runner and the durable queue over real json-file storage in a temporary directory,
// with a clock the tests move: when jobs run, retries and their delays, permanent failure, and
// that queued work survives a restart.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Clock } from "../domain/clock.ts";
import { createIdGenerator } from "../domain/ids.ts";
import type { Job } from "../domain/job.ts";
import type { JobQueue } from "../services/job-queue.ts";
import { leaveToJob } from "../storage/done-records.ts";
import { openJsonFileStorage } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { createDurableQueue } from "./durable-queue.ts";
import { CONCURRENCY, createJobRunner, type JobRunner, retryDelayMs } from "./runner.ts";

const START = Date.parse("2025-01-01T00:00:00.000Z");
const SECOND = 1000;

class TestClock implements Clock {
  ms = START;
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

interface Wren {
  storage: Storage;
  runner: JobRunner;
  queue: JobQueue;
}

describe("job runner over json-file storage", () => {
  let dir: string;
  let clock: TestClock;
  let wren: Wren;

  /** Opens the data directory as a starting server would: storage, runner, queue. */
  const open = async (): Promise<Wren> => {
    const storage = await openJsonFileStorage(dir);
    const runner = createJobRunner(storage.jobs, clock);
    const ids = createIdGenerator(() => clock.now().getTime());
    const queue = createDurableQueue(storage.jobs, clock, ids, () => runner.wake());
    return { storage, runner, queue };
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-jobs-"));
    clock = new TestClock();
    wren = await open();
  });

  afterEach(async () => {
    await wren.runner.stop();
    await wren.storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Registers a handler recording every call. */
  const recorder = (runner: JobRunner, type: string, maxAttempts?: number) => {
    const calls: { payload: Record<string, unknown>; job: Job }[] = [];
    runner.register(
      type,
      async (payload, job) => {
        calls.push({ payload, job });
      },
      maxAttempts === undefined ? {} : { maxAttempts },
    );
    return calls;
  };

  it("runs a job once it is due, not before, and only once", async () => {
    const calls = recorder(wren.runner, "poll.expire");
    const runAt = new Date(START + 60 * SECOND);
    const id = await wren.queue.enqueue("poll.expire", { pollId: "7" }, { runAt });

    assert.equal(await wren.runner.runDue(), 0);
    clock.advance(59 * SECOND);
    assert.equal(await wren.runner.runDue(), 0);
    assert.equal(calls.length, 0);

    clock.advance(SECOND);
    assert.equal(await wren.runner.runDue(), 1);
    assert.equal(calls.length, 1);
    assert.deepEqual(calls[0]?.payload, { pollId: "7" });
    assert.equal(calls[0]?.job.id, id);
    assert.equal(calls[0]?.job.attempts, 0);

    assert.equal(await wren.runner.runDue(), 0);
    assert.equal(calls.length, 1);
  });

  it("runs jobs of one ordering key one at a time, in order, others alongside", async () => {
    const log: string[] = [];
    const gates = new Map<string, PromiseWithResolvers<void>>();
    wren.runner.register("deliver", async (payload) => {
      const name = String(payload.name);
      log.push(`start ${name}`);
      const gate = Promise.withResolvers<void>();
      gates.set(name, gate);
      await gate.promise;
      log.push(`end ${name}`);
    });
    await wren.queue.enqueue("deliver", { name: "create" }, { orderingKey: "note\nhttps://a" });
    await wren.queue.enqueue("deliver", { name: "delete" }, { orderingKey: "note\nhttps://a" });
    await wren.queue.enqueue("deliver", { name: "other" }, { orderingKey: "note\nhttps://b" });
    const stored = await wren.storage.jobs.due(new Date(START).toISOString(), 10);
    assert.deepEqual(
      stored.map((job) => job.orderingKey),
      ["note\nhttps://a", "note\nhttps://a", "note\nhttps://b"],
    );

    const pass = wren.runner.runDue();
    const started = async (name: string) => {
      while (!gates.has(name)) await new Promise((resolve) => setImmediate(resolve));
      return gates.get(name) as PromiseWithResolvers<void>;
    };
    (await started("other")).resolve();
    const create = await started("create");
    // The Delete waits for the Create of its key, however long that takes.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gates.has("delete"), false);
    create.resolve();
    (await started("delete")).resolve();
    assert.equal(await pass, 3);
    assert.ok(log.indexOf("end create") < log.indexOf("start delete"), log.join(", "));
  });

  it("removes the job's record once its handler succeeds", async () => {
    recorder(wren.runner, "work");
    const id = await wren.queue.enqueue("work", {});
    const stored = await wren.storage.jobs.get(id);
    assert.equal(stored?.type, "work");
    assert.equal(stored?.runAt, new Date(START).toISOString());
    assert.equal(await wren.storage.jobs.nextRunAt(), new Date(START).toISOString());

    assert.equal(await wren.runner.runDue(), 1);
    assert.equal(await wren.storage.jobs.get(id), undefined);
    assert.equal(await wren.storage.jobs.nextRunAt(), null);
    assert.deepEqual(await wren.storage.jobs.failed(10), []);
  });

  it("writes with the job's end the once-records its work left to it, done or failed", async () => {
    const key = (n: string) => ["wren", "inboxDone", n, "digest"];
    const until = "2025-01-02T00:00:00.000Z";
    wren.runner.register("work", async (payload) => {
      assert.equal(leaveToJob({ key: key(String(payload.n)), until }), true);
      if (payload.fail) throw new Error("after the once-guarded part");
    });
    await wren.queue.enqueue("work", { n: 1 });
    await wren.queue.enqueue("work", { n: 2, fail: true });
    assert.equal(await wren.runner.runDue(), 2);
    for (const n of ["1", "2"]) {
      assert.deepEqual(await wren.storage.kv.get(key(n)), {
        key: key(n),
        value: true,
        expiresAt: until,
      });
    }
    // No job's work is running here.
    assert.equal(leaveToJob({ key: key("3"), until }), false);
  });

  it("retries a failing job with growing delays, then keeps it as failed", async () => {
    let attempts = 0;
    wren.runner.register(
      "flaky",
      async () => {
        attempts++;
        throw new Error(`refused ${attempts}`);
      },
      { maxAttempts: 3 },
    );
    const id = await wren.queue.enqueue("flaky", { n: 1 });

    assert.equal(await wren.runner.runDue(), 1);
    let job = await wren.storage.jobs.get(id);
    assert.equal(job?.attempts, 1);
    assert.equal(job?.lastError, "refused 1");
    assert.equal(job?.failedAt, null);
    assert.equal(job?.runAt, new Date(START + retryDelayMs(1)).toISOString());

    // Not a moment before the delay.
    clock.advance(retryDelayMs(1) - 1);
    assert.equal(await wren.runner.runDue(), 0);
    clock.advance(1);
    assert.equal(await wren.runner.runDue(), 1);
    job = await wren.storage.jobs.get(id);
    assert.equal(job?.attempts, 2);
    assert.equal(job?.lastError, "refused 2");
    const secondDelay = Date.parse(job?.runAt ?? "") - clock.now().getTime();
    assert.equal(secondDelay, retryDelayMs(2));
    assert.ok(secondDelay > retryDelayMs(1), "the second delay is longer than the first");

    clock.advance(secondDelay - 1);
    assert.equal(await wren.runner.runDue(), 0);
    clock.advance(1);
    assert.equal(await wren.runner.runDue(), 1);
    job = await wren.storage.jobs.get(id);
    assert.equal(job?.attempts, 3);
    assert.equal(job?.lastError, "refused 3");
    assert.equal(job?.failedAt, clock.now().toISOString());
    assert.deepEqual(
      (await wren.storage.jobs.failed(10)).map((j) => j.id),
      [id],
    );
    assert.equal(await wren.storage.jobs.nextRunAt(), null);

    // A failed job is never picked up again.
    clock.advance(30 * 24 * 3600 * SECOND);
    assert.equal(await wren.runner.runDue(), 0);
    assert.equal(attempts, 3);
  });

  it("grows the retry delay with each attempt, up to a cap", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(retryDelayMs);
    assert.equal(delays[0], 10 * SECOND);
    for (let i = 1; i < delays.length; i++) {
      assert.ok((delays[i] as number) >= (delays[i - 1] as number));
    }
    assert.ok((delays[2] as number) > (delays[1] as number));
    assert.equal(delays.at(-1), 6 * 3600 * SECOND);
  });

  it("removes a job that succeeds on a retry", async () => {
    let attempts = 0;
    wren.runner.register("flaky", async () => {
      attempts++;
      if (attempts < 2) throw new Error("not yet");
    });
    const id = await wren.queue.enqueue("flaky", {});
    await wren.runner.runDue();
    assert.equal((await wren.storage.jobs.get(id))?.attempts, 1);
    clock.advance(retryDelayMs(1));
    assert.equal(await wren.runner.runDue(), 1);
    assert.equal(attempts, 2);
    assert.equal(await wren.storage.jobs.get(id), undefined);
    assert.deepEqual(await wren.storage.jobs.failed(10), []);
  });

  it("fails a job of an unknown type at once, for good", async () => {
    const id = await wren.queue.enqueue("no.such.type", { x: 1 });
    assert.equal(await wren.runner.runDue(), 1);
    const job = await wren.storage.jobs.get(id);
    assert.equal(job?.attempts, 1);
    assert.equal(job?.failedAt, clock.now().toISOString());
    assert.match(job?.lastError ?? "", /no\.such\.type/);
    assert.deepEqual(job?.payload, { x: 1 });
    clock.advance(7 * 24 * 3600 * SECOND);
    assert.equal(await wren.runner.runDue(), 0);
  });

  it("keeps queued jobs and their retry state across close and reopen", async () => {
    const laterId = await wren.queue.enqueue(
      "later",
      { pollId: "9" },
      { runAt: new Date(START + 3600 * SECOND) },
    );
    wren.runner.register("flaky", async () => {
      throw new Error("down");
    });
    const flakyId = await wren.queue.enqueue("flaky", {});
    await wren.runner.runDue();
    await wren.runner.stop();
    await wren.storage.close();

    wren = await open();
    const later = recorder(wren.runner, "later");
    const flaky = recorder(wren.runner, "flaky");
    assert.equal(await wren.runner.runDue(), 0);
    assert.equal((await wren.storage.jobs.get(flakyId))?.attempts, 1);

    clock.advance(3600 * SECOND);
    assert.equal(await wren.runner.runDue(), 2);
    assert.deepEqual(
      later.map((c) => [c.job.id, c.payload]),
      [[laterId, { pollId: "9" }]],
    );
    assert.equal(flaky[0]?.job.attempts, 1);
    assert.equal(await wren.storage.jobs.nextRunAt(), null);
  });

  it("runs again after a restart a job whose run was cut short", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    wren.runner.register("slow", async () => {
      started++;
      await gate;
    });
    const id = await wren.queue.enqueue("slow", { n: 5 });
    // The pass is still inside the handler when the process "dies" (storage closes).
    const cut = wren.runner.runDue().catch(() => -1);
    while (started === 0) await new Promise((resolve) => setImmediate(resolve));
    await wren.storage.close();

    const before = wren;
    wren = await open();
    const calls = recorder(wren.runner, "slow");
    assert.equal(await wren.runner.runDue(), 1);
    assert.deepEqual(calls[0]?.payload, { n: 5 });
    assert.equal(await wren.storage.jobs.get(id), undefined);

    // Let the old pass finish: its writes go to the closed storage and change nothing.
    release();
    await cut;
    await before.runner.stop();
  });

  it("never runs a job twice when passes are started concurrently", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    wren.runner.register("slow", async () => {
      runs++;
      await gate;
    });
    await wren.queue.enqueue("slow", {});
    await wren.queue.enqueue("slow", {});

    const passes = [wren.runner.runDue(), wren.runner.runDue(), wren.runner.runDue()];
    while (runs < 2) await new Promise((resolve) => setImmediate(resolve));
    // A fourth call while the handlers are still busy.
    passes.push(wren.runner.runDue());
    release();
    const totals = await Promise.all(passes);
    assert.equal(runs, 2);
    assert.deepEqual(totals, [2, 2, 2, 2]);
    assert.equal(await wren.runner.runDue(), 0);
    assert.equal(runs, 2);
  });

  it("runs jobs enqueued during a pass while a slow one is still running", async () => {
    const gate = Promise.withResolvers<void>();
    let slowStarted = false;
    wren.runner.register("slow", async () => {
      slowStarted = true;
      await gate.promise;
    });
    const quick: number[] = [];
    wren.runner.register("quick", async (payload) => {
      quick.push(payload.n as number);
    });
    await wren.queue.enqueue("slow", {});
    const pass = wren.runner.runDue();
    while (!slowStarted) await new Promise((resolve) => setImmediate(resolve));
    // As the durable queue does after an enqueue (wake → runDue): the pass under way takes them.
    for (let n = 0; n < 3; n++) await wren.queue.enqueue("quick", { n });
    void wren.runner.runDue();
    for (let i = 0; i < 200 && quick.length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ranMeanwhile = [...quick];
    // Released either way, so a failure does not leave the pass hanging.
    gate.resolve();
    assert.deepEqual(ranMeanwhile.sort(), [0, 1, 2], "quick jobs waited for the slow one");
    assert.equal(await pass, 4);
  });

  it("runs many jobs at once, never one twice", async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    wren.runner.register("io", async (payload) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(payload.n as number);
      running--;
    });
    for (let n = 0; n < CONCURRENCY * 2; n++) await wren.queue.enqueue("io", { n });
    assert.equal(await wren.runner.runDue(), CONCURRENCY * 2);
    assert.equal(most, CONCURRENCY);
    assert.deepEqual(
      seen.sort((a, b) => a - b),
      Array.from({ length: CONCURRENCY * 2 }, (_, n) => n),
    );
  });

  it("tops the pool up in batches as jobs end one by one, and not once none are left", async () => {
    // Each job waits for its own release; the test releases them one at a time.
    const releases: (() => void)[] = [];
    wren.runner.register("io", () => new Promise<void>((resolve) => releases.push(resolve)));
    let claims = 0;
    const jobs = wren.storage.jobs;
    const claim = jobs.claim.bind(jobs);
    // Counts the runner's looks; the storage answers them.
    jobs.claim = (...args) => {
      claims++;
      return claim(...args);
    };
    const total = CONCURRENCY * 2;
    for (let n = 0; n < total; n++) await wren.queue.enqueue("io", { n });
    const pass = wren.runner.runDue();
    for (let released = 0; released < total; released++) {
      while (releases.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      releases.shift()?.();
      // Lets the ended job's top-up (if any) claim before the next ends.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(await pass, total);
    // One claim for the first 64, one per 16 places freed while jobs are left (4), one that
    // finds none left, one as the pool runs empty: 7, where a claim per ended job made 129.
    assert.ok(claims <= 8, `${claims} claims`);
  });

  it("runs in the same pass a job enqueued by a running job", async () => {
    const order: string[] = [];
    wren.runner.register("first", async () => {
      order.push("first");
      await wren.queue.enqueue("second", {});
    });
    wren.runner.register("second", async () => {
      order.push("second");
    });
    await wren.queue.enqueue("first", {});
    assert.equal(await wren.runner.runDue(), 2);
    assert.deepEqual(order, ["first", "second"]);
  });

  it("once started, runs a job enqueued for now without being asked", async () => {
    const { promise: ran, resolve } = Promise.withResolvers<Record<string, unknown>>();
    wren.runner.register("now", async (payload) => resolve(payload));
    wren.runner.start();
    await wren.queue.enqueue("now", { hello: "there" });
    assert.deepEqual(await ran, { hello: "there" });
    await wren.runner.stop();
    assert.equal(await wren.storage.jobs.nextRunAt(), null);
  });
});
