// Several job runners on one PostgreSQL database, each with its own Storage (its own pool), as
// several Wren processes: every job runs exactly once; a job whose runner died mid-job (it
// claimed it and never finished) is run by another once the lease passes; a runner whose lease
// ran out cannot undo the outcome of the runner that took its job over. The clock is the tests'.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { type Clock, systemClock } from "../domain/clock.ts";
import { createIdGenerator } from "../domain/ids.ts";
import type { JobQueue } from "../services/job-queue.ts";
import type { Storage } from "../storage/ports.ts";
import { openPostgresStorage } from "../storage/postgres/index.ts";
import {
  createTempDatabase,
  type TempDatabase,
} from "../storage/postgres/testing/temp-database.ts";
import { createDurableQueue } from "./durable-queue.ts";
import { CONCURRENCY, createJobRunner, type JobRunner, LEASE_MS } from "./runner.ts";

const START = Date.parse("2025-01-01T00:00:00.000Z");

class TestClock implements Clock {
  ms = START;
  now(): Date {
    return new Date(this.ms);
  }
}

/** One Wren process's share: its storage, its runner and a queue to enqueue through. */
interface Process {
  storage: Storage;
  runner: JobRunner;
  queue: JobQueue;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Resolves once `done()` holds (a notification from the other process arrived); fails after 5 s. */
async function waitFor(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 5_000) assert.fail("the other process never heard the write");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
/** Lets a started runner finish its first look (and set its timer a minute away). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe("job runners of several processes on PostgreSQL", () => {
  let database: TempDatabase;
  let clock: TestClock;
  let processes: Process[];

  const open = async (): Promise<Process> => {
    const storage = await openPostgresStorage({ url: database.url, poolMax: 4 });
    const runner = createJobRunner(storage.jobs, clock);
    // Ids from both processes must not collide: the generator's sequence is per process, so
    // each gets its own node-like spread of times.
    const offset = processes.length * 1000;
    const ids = createIdGenerator(() => clock.now().getTime() + offset);
    const queue = createDurableQueue(storage.jobs, clock, ids);
    const process = { storage, runner, queue };
    processes.push(process);
    return process;
  };

  before(async () => {
    database = await createTempDatabase();
  });
  after(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await database.empty();
    clock = new TestClock();
    processes = [];
  });
  afterEach(async () => {
    for (const { storage } of processes) await storage.close();
  });

  it("writes jobs enqueued at once together: two wake-ups for the other process, not 50", async () => {
    const [a, b] = [await open(), await open()];
    let wakeUps = 0;
    const stop = b.storage.jobs.watch(() => wakeUps++);
    try {
      // As a fan-out queues its deliveries: all at once, each with its own ordering key.
      const ids = await Promise.all(
        Array.from({ length: 50 }, (_, n) =>
          a.queue.enqueue("work", { n }, { orderingKey: `key-${n % 5}` }),
        ),
      );
      assert.equal(new Set(ids).size, 50);
      for (const [n, id] of ids.entries()) {
        const job = await b.storage.jobs.get(id);
        assert.deepEqual([job?.payload, job?.orderingKey], [{ n }, `key-${n % 5}`]);
      }
      // The wake-up trigger fires per statement: the first job's, then the 49 put meanwhile.
      await waitFor(() => wakeUps > 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(wakeUps, 2);
      // With nothing under way, an enqueue is a write of its own.
      await a.queue.enqueue("work", { n: 50 });
      await waitFor(() => wakeUps > 2);
    } finally {
      stop();
    }
  });

  it("runs each of 200 jobs exactly once across two runners, both taking part", async () => {
    const [a, b] = [await open(), await open()];
    const runs = new Map<number, string[]>();
    const started = { a: 0, b: 0 };
    const bothStarted = Promise.withResolvers<void>();
    for (const [name, p] of [
      ["a", a],
      ["b", b],
    ] as const) {
      p.runner.register("work", async (payload) => {
        started[name]++;
        if (started.a > 0 && started.b > 0) bothStarted.resolve();
        // Each runner holds at most CONCURRENCY jobs, fewer than 200: the first to claim waits
        // here until the other has claimed some too, so both surely take part.
        await bothStarted.promise;
        const n = payload.n as number;
        runs.set(n, [...(runs.get(n) ?? []), name]);
      });
    }
    assert.ok(200 > 2 * CONCURRENCY);
    for (let n = 0; n < 200; n++) await (n % 2 === 0 ? a : b).queue.enqueue("work", { n });

    const [ranA, ranB] = await Promise.all([a.runner.runDue(), b.runner.runDue()]);
    assert.equal(ranA + ranB, 200);
    assert.ok(ranA > 0 && ranB > 0, `both ran jobs (a: ${ranA}, b: ${ranB})`);
    assert.deepEqual(
      [...runs.keys()].sort((x, y) => x - y),
      Array.from({ length: 200 }, (_, n) => n),
    );
    for (const [n, by] of runs) assert.equal(by.length, 1, `job ${n} ran ${by.length} times`);
    assert.equal(await a.storage.jobs.nextRunAt(), null);
    assert.deepEqual(await b.runner.runDue(), 0);
  });

  it("runs the job of a runner killed mid-job once its lease passes", async () => {
    const [killed, survivor] = [await open(), await open()];
    const started = Promise.withResolvers<void>();
    // The killed process's handler starts and never ends: it does nothing more, as after SIGKILL.
    killed.runner.register("work", async () => {
      started.resolve();
      await new Promise(() => {});
    });
    const ran: unknown[] = [];
    survivor.runner.register("work", async (payload) => {
      ran.push(payload.n);
    });
    const id = await killed.queue.enqueue("work", { n: 1 });
    void killed.runner.runDue();
    await started.promise;

    // Claimed: not due for the survivor, which would next look when the lease passes.
    assert.equal(await survivor.runner.runDue(), 0);
    const leaseEnd = new Date(START + LEASE_MS).toISOString();
    assert.equal(await survivor.storage.jobs.nextRunAt(), leaseEnd);
    clock.ms = START + LEASE_MS - 1;
    assert.equal(await survivor.runner.runDue(), 0);

    clock.ms = START + LEASE_MS;
    assert.equal(await survivor.runner.runDue(), 1);
    assert.deepEqual(ran, [1]);
    assert.equal(await survivor.storage.jobs.get(id), undefined);
    assert.equal(await survivor.runner.runDue(), 0);
  });

  it("keeps the outcome of the runner that took over from one whose lease ran out", async () => {
    const [slow, other] = [await open(), await open()];
    const slowStarted = Promise.withResolvers<void>();
    const slowGate = Promise.withResolvers<void>();
    slow.runner.register("work", async () => {
      slowStarted.resolve();
      await slowGate.promise;
    });
    other.runner.register(
      "work",
      async () => {
        throw new Error("peer away");
      },
      { maxAttempts: 5 },
    );
    const id = await slow.queue.enqueue("work", {});
    const slowPass = slow.runner.runDue();
    await slowStarted.promise;

    // The slow runner's lease passes (no renewal reached the store): the other takes the job
    // and its attempt fails, so the job waits for a retry.
    clock.ms = START + LEASE_MS;
    assert.equal(await other.runner.runDue(), 1);
    const retry = await other.storage.jobs.get(id);
    assert.equal(retry?.attempts, 1);
    assert.equal(retry?.lastError, "peer away");

    // The slow handler succeeds late: the job is no longer its runner's, so it is not removed.
    slowGate.resolve();
    assert.equal(await slowPass, 1);
    assert.deepEqual(await slow.storage.jobs.get(id), retry);
    assert.equal(await slow.storage.jobs.nextRunAt(), retry?.runAt);
  });

  it("never runs a job twice when many runners claim at once", async () => {
    const all = [await open(), await open(), await open(), await open()];
    const runs = new Map<number, number>();
    for (const p of all) {
      p.runner.register("work", async (payload) => {
        await tick();
        const n = payload.n as number;
        runs.set(n, (runs.get(n) ?? 0) + 1);
      });
    }
    for (let n = 0; n < 300; n++) await all[n % all.length]?.queue.enqueue("work", { n });
    const totals = await Promise.all(all.map((p) => p.runner.runDue()));
    assert.equal(
      totals.reduce((x, y) => x + y, 0),
      300,
    );
    assert.equal(runs.size, 300);
    assert.ok([...runs.values()].every((count) => count === 1));
  });

  it("takes over the job of a worker process SIGKILLed mid-job", async () => {
    // Real processes and the system clock, with a short lease: the worker renews its claim while
    // alive; once killed, the claim passes and the survivor's timer wakes for it.
    const leaseMs = 1500;
    const storage = await openPostgresStorage({ url: database.url, poolMax: 2 });
    const survivor = createJobRunner(storage.jobs, systemClock, { leaseMs });
    const queue = createDurableQueue(storage.jobs, systemClock, createIdGenerator());
    processes.push({ storage, runner: survivor, queue });
    const ran = Promise.withResolvers<string>();
    survivor.register("work", async (_payload, job) => ran.resolve(job.id));
    const id = await queue.enqueue("work", {});

    const worker = spawn(
      process.execPath,
      [join(import.meta.dirname, "testing", "hanging-worker.ts"), database.url, String(leaseMs)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = once(worker, "exit");
    try {
      const lines = createInterface({ input: worker.stdout });
      for await (const line of lines) {
        if (line === `started ${id}`) break;
      }
      // The job is the worker's now: the survivor finds nothing to run.
      assert.equal(await survivor.runDue(), 0);
    } finally {
      worker.kill("SIGKILL");
    }
    const [, signal] = await exited;
    assert.equal(signal, "SIGKILL");
    survivor.start();
    assert.equal(await ran.promise, id);
    await survivor.stop();
    assert.equal(await storage.jobs.get(id), undefined);
  });

  // Without the wake-up the idle runner would look only at its next poll, a minute away (and the
  // released job is never due on this test clock without the move): the timeout fails these.
  it("wakes an idle runner when another process enqueues", { timeout: 20_000 }, async () => {
    const [web, worker] = [await open(), await open()];
    const ran = Promise.withResolvers<unknown>();
    worker.runner.register("work", async (payload) => ran.resolve(payload.n));
    worker.runner.start();
    await settle();
    await web.queue.enqueue("work", { n: 7 });
    assert.equal(await ran.promise, 7);
    await worker.runner.stop();
  });

  // Runners compare it with their timer instead of querying the table on every post's event record.
  it("tells watchers when the earliest new job falls due", { timeout: 20_000 }, async () => {
    const [web, worker] = [await open(), await open()];
    const heard: (string | undefined)[] = [];
    const woken = Promise.withResolvers<void>();
    // Nothing as listening starts: the runner that watches looks at the table as it starts.
    const unwatch = worker.storage.jobs.watch((runAt) => {
      heard.push(runAt);
      woken.resolve();
    });
    await settle();
    const due = new Date(START + 90_000);
    await web.queue.enqueue("work", { n: 1 }, { runAt: due });
    await woken.promise;
    unwatch();
    assert.deepEqual(heard, [due.toISOString()]);
  });

  // Its enqueue woke its runner at once; the echo, heard later (after a test moved its clock,
  // say), had the runner look again and take jobs its process had not asked to run yet.
  it("tells a process nothing of its own new jobs and releases", { timeout: 20_000 }, async () => {
    const [web, worker] = [await open(), await open()];
    const heard: (string | undefined)[] = [];
    const theirs = new Date(START + 90_000).toISOString();
    const woken = Promise.withResolvers<void>();
    const unwatch = worker.storage.jobs.watch((runAt) => {
      heard.push(runAt);
      if (runAt === theirs) woken.resolve();
    });
    await settle();
    await worker.queue.enqueue("work", { n: 1 }, { runAt: new Date(START + 60_000) });
    await worker.queue.enqueue("work", { n: 2 }, { runAt: new Date(START + 3600_000), group: "g" });
    assert.equal(await worker.queue.release("g"), 1);
    // Notices come in commit order: once the other process's is heard, its own were too.
    await web.queue.enqueue("work", { n: 3 }, { runAt: new Date(theirs) });
    await woken.promise;
    unwatch();
    assert.deepEqual(heard, [theirs]);
  });

  it("wakes an idle runner when another process releases a group", {
    timeout: 20_000,
  }, async () => {
    const [web, worker] = [await open(), await open()];
    const ran = Promise.withResolvers<unknown>();
    worker.runner.register("work", async (payload) => ran.resolve(payload.n));
    await web.queue.enqueue("work", { n: 8 }, { runAt: new Date(START + 3600_000), group: "g" });
    worker.runner.start();
    await settle();
    assert.equal(await web.queue.release("g"), 1);
    assert.equal(await ran.promise, 8);
    await worker.runner.stop();
  });
});
