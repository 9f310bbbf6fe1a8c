// The durable event bus over real json-file storage, the durable queue and the job runner, with
// a clock the tests move: inline runs leave no record, a failing listener is retried later and
// alone, and an event recorded before a write that a crash cut short runs after the restart —
// or not at all when the write never happened.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { type MovableClock, movableClock } from "../../test/polls/helpers.ts";
import type { DomainEvent } from "../domain/events.ts";
import { createIdGenerator } from "../domain/ids.ts";
import { createDurableQueue } from "../jobs/durable-queue.ts";
import { createJobRunner, type JobRunner } from "../jobs/runner.ts";
import { makeStatus } from "../storage/contract/fixtures.ts";
import { openJsonFileStorage, WriteFaults } from "../storage/json-file/index.ts";
import type { Storage } from "../storage/ports.ts";
import { confirmEvent, intentRecordOf } from "./confirm-event.ts";
import {
  createEventBus,
  EVENT_JOB,
  EVENT_LEASE_MS,
  EVENT_RETRY_MS,
  type EventBus,
  publishAllAround,
  publishIf,
  releaseLeasedEvents,
} from "./events.ts";
import type { JobQueue } from "./job-queue.ts";

const statusRecord = (id: string) => makeStatus({ id, accountId: "1" });

/** A listener that records the events it saw and fails while `failing` is set. */
class Recorder {
  seen: DomainEvent[] = [];
  failing = false;
  readonly listener = async (event: DomainEvent) => {
    this.seen.push(event);
    if (this.failing) throw new Error("listener down");
  };
}

interface Wren {
  storage: Storage;
  runner: JobRunner;
  queue: JobQueue;
  bus: EventBus;
}

describe("durable event bus", () => {
  let dir: string;
  let clock: MovableClock;
  let wren: Wren;

  /** Opens the data directory as a starting server would, with listeners `a` and `b`. */
  const open = async (a: Recorder, b: Recorder): Promise<Wren> => {
    const storage = await openJsonFileStorage(dir, { writeFaults: faults });
    const runner = createJobRunner(storage.jobs, clock);
    const ids = createIdGenerator(() => clock.now().getTime());
    const queue = createDurableQueue(storage.jobs, clock, ids, () => runner.wake());
    const bus = createEventBus({
      jobs: queue,
      clock,
      confirm: (event) => confirmEvent(storage, event),
      intentRecord: intentRecordOf,
    });
    bus.subscribe("a", a.listener);
    bus.subscribe("b", b.listener);
    runner.register(EVENT_JOB, (payload) => bus.runRecorded(payload));
    return { storage, runner, queue, bus };
  };

  /** Every job still waiting (due or not), soonest first. */
  const waiting = () => wren.storage.jobs.due("9999-12-31T23:59:59.999Z", 100);

  let a: Recorder;
  let b: Recorder;
  let faults: WriteFaults;
  beforeEach(async () => {
    faults = new WriteFaults();
    dir = await mkdtemp(join(tmpdir(), "wren-events-"));
    clock = movableClock();
    a = new Recorder();
    b = new Recorder();
    wren = await open(a, b);
  });
  afterEach(async () => {
    await wren.storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs the listeners inline and leaves no record when they succeed", async () => {
    const event: DomainEvent = { type: "status.created", status: statusRecord("10") };
    await wren.bus.publish(event);
    assert.deepEqual(a.seen, [event]);
    assert.deepEqual(b.seen, [event]);
    assert.deepEqual(await waiting(), []);
    assert.equal(await wren.storage.jobs.nextRunAt(), null);
  });

  it("retries a failed listener later, and only that one", async () => {
    b.failing = true;
    const event: DomainEvent = { type: "status.created", status: statusRecord("11") };
    await wren.bus.publish(event);
    assert.equal(a.seen.length, 1);
    assert.equal(b.seen.length, 1);

    const [retry, ...more] = await waiting();
    assert.deepEqual(more, [], "the inline record is gone, one retry is left");
    assert.ok(retry);
    assert.deepEqual(retry.payload.listeners, ["b"]);
    assert.equal(Date.parse(retry.runAt), clock.now().getTime() + EVENT_RETRY_MS);

    // Not before its time.
    assert.equal(await wren.runner.runDue(), 0);
    b.failing = false;
    clock.advance(EVENT_RETRY_MS);
    assert.equal(await wren.runner.runDue(), 1);
    assert.equal(a.seen.length, 1, "the listener that succeeded does not run again");
    assert.equal(b.seen.length, 2);
    assert.deepEqual(b.seen[1], event, "the event comes back from its record intact");
    assert.deepEqual(await waiting(), []);
  });

  it("keeps retrying with backoff while the listener fails, and drops it once done", async () => {
    b.failing = true;
    await wren.bus.publish({ type: "status.created", status: statusRecord("12") });
    clock.advance(EVENT_RETRY_MS);
    assert.equal(await wren.runner.runDue(), 1);
    assert.equal(b.seen.length, 2);
    const [job] = await waiting();
    assert.ok(job);
    assert.equal(job.attempts, 1, "the runner retries the job that made no progress");
    assert.ok(Date.parse(job.runAt) > clock.now().getTime());
    assert.deepEqual(job.payload.listeners, ["b"]);

    b.failing = false;
    clock.advance(Date.parse(job.runAt) - clock.now().getTime());
    assert.equal(await wren.runner.runDue(), 1);
    assert.equal(b.seen.length, 3);
    assert.equal(a.seen.length, 1);
    assert.deepEqual(await waiting(), []);
  });

  it("splits off the listeners still owed when a retried job makes some progress", async () => {
    a.failing = true;
    b.failing = true;
    await wren.bus.publish({ type: "status.created", status: statusRecord("13") });
    const [first] = await waiting();
    assert.deepEqual(first?.payload.listeners, ["a", "b"]);

    a.failing = false;
    clock.advance(EVENT_RETRY_MS);
    assert.equal(await wren.runner.runDue(), 1);
    const [rest, ...more] = await waiting();
    assert.deepEqual(more, []);
    assert.deepEqual(rest?.payload.listeners, ["b"]);
    assert.notEqual(rest?.id, first?.id);

    b.failing = false;
    clock.advance(EVENT_RETRY_MS);
    assert.equal(await wren.runner.runDue(), 1);
    assert.deepEqual([a.seen.length, b.seen.length], [2, 3]);
    assert.deepEqual(await waiting(), []);
  });

  it("runs an event recorded before its write after a crash, once the write is there", async () => {
    const status = statusRecord("14");
    // The process dies after the record and the write, before the listeners ran.
    await wren.bus.intend({ type: "status.created", status });
    await wren.storage.statuses.put(status);
    assert.deepEqual([a.seen, b.seen], [[], []]);
    await wren.storage.close();

    a = new Recorder();
    b = new Recorder();
    wren = await open(a, b);
    const [leased] = await waiting();
    assert.equal(Date.parse(leased?.runAt ?? ""), clock.now().getTime() + EVENT_LEASE_MS);
    // A post's record names the status alone: the listeners get the stored one.
    assert.deepEqual(leased?.payload.event, { type: "status.created", status: { id: "14" } });
    assert.equal(await releaseLeasedEvents(wren.queue), 1);
    assert.equal(await wren.runner.runDue(), 1);
    assert.deepEqual(
      [a.seen, b.seen].map((seen) => seen.map((e) => e.type === "status.created" && e.status)),
      [[status], [status]],
    );
    assert.deepEqual(await waiting(), []);
  });

  it("after a crash inside a multi-event write, runs just the events whose part was stored", async () => {
    const follow = {
      id: "40",
      accountId: "2",
      targetId: "1",
      createdAt: "2030-01-01T00:00:00.000Z",
      showReblogs: true,
      notify: false,
      languages: null,
      uri: null,
    };
    const block = {
      id: "41",
      accountId: "1",
      targetId: "2",
      createdAt: follow.createdAt,
      uri: null,
    };
    await wren.storage.follows.put(follow);
    // A block: both events recorded, the follow removed, then the process dies before the block.
    await wren.bus.intend({ type: "account.unfollowed", follow, cause: "block" });
    await wren.bus.intend({ type: "account.blocked", block });
    await wren.storage.follows.delete("2", "1");
    await wren.storage.close();

    a = new Recorder();
    b = new Recorder();
    wren = await open(a, b);
    await releaseLeasedEvents(wren.queue);
    assert.equal(await wren.runner.runDue(), 2);
    assert.deepEqual(
      a.seen.map((e) => e.type),
      ["account.unfollowed"],
    );
    assert.deepEqual(await waiting(), []);
  });

  it("does nothing for an event recorded before a write that never happened", async () => {
    await wren.bus.intend({ type: "status.created", status: statusRecord("15") });
    await wren.storage.close();

    a = new Recorder();
    b = new Recorder();
    wren = await open(a, b);
    clock.advance(EVENT_LEASE_MS);
    assert.equal(await wren.runner.runDue(), 1);
    assert.deepEqual([a.seen, b.seen], [[], []]);
    assert.deepEqual(await waiting(), []);
  });

  it("does not take over an inline run while its lease lasts", async () => {
    let ran = 0;
    const pending = await wren.bus.intend({ type: "status.created", status: statusRecord("16") });
    wren.runner.register(EVENT_JOB, async () => {
      ran++;
    });
    assert.equal(await wren.runner.runDue(), 0);
    await pending.published();
    clock.advance(EVENT_LEASE_MS);
    assert.equal(await wren.runner.runDue(), 0, "the inline run removed its record");
    assert.equal(ran, 0);
    assert.equal(a.seen.length, 1);
  });

  it("answers a stored write when its record cannot be written, trying the listeners once", async () => {
    faults.failWith("ENOSPC");
    const event: DomainEvent = { type: "status.created", status: statusRecord("18") };
    await wren.bus.publish(event);
    assert.deepEqual([a.seen, b.seen], [[event], [event]]);
    await assert.rejects(wren.bus.intend(event), "no write may follow an intent not recorded");
    faults.clear();
    assert.deepEqual(await waiting(), []);
  });

  it("drops the record of an abandoned write", async () => {
    const pending = await wren.bus.intend({ type: "status.created", status: statusRecord("17") });
    await pending.abandon();
    assert.deepEqual(await waiting(), []);
  });
  it("runs a conditional write's event only when the write changed something", async () => {
    const follow = {
      id: "30",
      accountId: "1",
      targetId: "2",
      createdAt: "2030-01-01T00:00:00.000Z",
      showReblogs: true,
      notify: false,
      languages: null,
      uri: null,
    };
    const event: DomainEvent = { type: "account.unfollowed", follow, cause: "unfollow" };
    assert.equal(await publishIf(wren.bus, event, async () => false), false);
    assert.deepEqual(a.seen, [], "nothing was removed: no event");
    assert.deepEqual(await waiting(), [], "and no record left");
    assert.equal(await publishIf(wren.bus, event, async () => true), true);
    assert.deepEqual(a.seen, [event]);
    assert.deepEqual(await waiting(), []);
  });

  it("records every event of a multi-event write before it, and drops them all if it fails", async () => {
    const first: DomainEvent = { type: "status.created", status: statusRecord("31") };
    const second: DomainEvent = { type: "status.created", status: statusRecord("32") };
    let recordsDuringWrite = 0;
    await assert.rejects(
      publishAllAround(wren.bus, [first, second], async () => {
        recordsDuringWrite = (await waiting()).length;
        throw new Error("disk gone");
      }),
    );
    assert.equal(recordsDuringWrite, 2);
    assert.deepEqual(await waiting(), []);
    assert.deepEqual(a.seen, []);
    await publishAllAround(wren.bus, [first, second], async () => {});
    assert.deepEqual(a.seen, [first, second], "in the given order");
    assert.deepEqual(await waiting(), []);
  });

  it("runs the listeners with the event the write produced, when it gives one", async () => {
    const recorded: DomainEvent = { type: "status.created", status: statusRecord("33") };
    const final: DomainEvent = {
      type: "status.created",
      status: { ...statusRecord("33"), text: "as written" },
    };
    const pending = await wren.bus.intend(recorded);
    await pending.published(final);
    assert.deepEqual(a.seen, [final]);
  });
});
