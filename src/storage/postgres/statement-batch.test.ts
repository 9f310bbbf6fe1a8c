// Removals gathered across requests (statement-batch.ts): many ids in one statement, none left
// behind by a send under way, all sent on flush; and the job store's retire on a real database:
// finished jobs go in one statement, and a storage that closes sends what it gathered — so the
// next process does not run those jobs again.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Job } from "../../domain/job.ts";
import { createStatementBatch } from "./statement-batch.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const until = (done: () => boolean) => eventually(async () => done(), Boolean);

function recordingBatch(delayMs: number, maxIds = 100) {
  const sent: string[][] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const batch = createStatementBatch({
    async send(ids) {
      sent.push(ids);
      if (hold) await new Promise<void>((resolve) => (release = resolve));
    },
    delayMs,
    maxIds,
    what: "test",
  });
  return {
    batch,
    sent,
    holdSends: () => (hold = true),
    releaseSend: () => {
      hold = false;
      release?.();
    },
  };
}

const job = (id: string): Job => ({
  id,
  type: "events.run",
  payload: {},
  runAt: new Date(Date.now() + 60_000).toISOString(),
  attempts: 0,
  lastError: null,
  failedAt: null,
  createdAt: new Date().toISOString(),
  group: "events.lease",
});

describe("statement batch", () => {
  it("sends the ids gathered within its delay in one statement", async () => {
    const { batch, sent } = recordingBatch(20);
    batch.add("1");
    batch.add("2");
    batch.add("3");
    assert.deepEqual(sent, []);
    await until(() => sent.length > 0);
    assert.deepEqual(sent, [["1", "2", "3"]]);
  });

  it("sends at once when it holds its most", async () => {
    const { batch, sent } = recordingBatch(60_000, 2);
    batch.add("1");
    batch.add("2");
    await until(() => sent.length > 0);
    assert.deepEqual(sent, [["1", "2"]]);
  });

  it("gathers what comes during a send for the next, one statement at a time", async () => {
    const { batch, sent, holdSends, releaseSend } = recordingBatch(1);
    holdSends();
    batch.add("1");
    await until(() => sent.length > 0);
    batch.add("2");
    batch.add("3");
    assert.deepEqual(sent, [["1"]]);
    releaseSend();
    await until(() => sent.length > 1);
    assert.deepEqual(sent, [["1"], ["2", "3"]]);
  });

  it("tells which ids are not done yet: gathered, or in the statement under way", async () => {
    const { batch, sent, holdSends, releaseSend } = recordingBatch(1);
    holdSends();
    batch.add("1");
    await until(() => sent.length > 0);
    batch.add("2");
    assert.deepEqual(batch.pending().sort(), ["1", "2"]);
    releaseSend();
    await batch.flush();
    assert.deepEqual(batch.pending(), []);
  });

  it("sends everything on flush, without waiting for its delay", async () => {
    const { batch, sent } = recordingBatch(60_000);
    batch.add("1");
    batch.add("2");
    await batch.flush();
    assert.deepEqual(sent, [["1", "2"]]);
    await batch.flush();
    assert.deepEqual(sent, [["1", "2"]]);
  });
});

describe("retired jobs on PostgreSQL", () => {
  const db = twoProcessesOnOneDatabase();

  it("are removed once retired", async () => {
    const { a } = db;
    for (const id of ["11", "12", "13"]) await a.jobs.put(job(id));
    await Promise.all(["11", "12", "13"].map((id) => a.jobs.retire(id)));
    const later = new Date(Date.now() + 120_000).toISOString();
    await eventually(
      () => db.b.jobs.due(later, 10),
      (left) => left.length === 0,
    );
  });

  it("are not taken again by their process while their removal waits, lease over or not", async () => {
    const { a } = db;
    await a.jobs.put({ ...job("31"), runAt: new Date(Date.now() - 1_000).toISOString() });
    const owner = "runner-a";
    const soon = new Date(Date.now() + 1_000).toISOString();
    assert.deepEqual(
      (await a.jobs.claim(new Date().toISOString(), 10, soon, owner)).map((j) => j.id),
      ["31"],
    );
    await a.jobs.retire("31");
    // Past its lease (a clock moved on, or a slow send): this process knows it is done.
    const later = new Date(Date.now() + 120_000).toISOString();
    const far = new Date(Date.now() + 240_000).toISOString();
    assert.deepEqual(await a.jobs.claim(later, 10, far, owner), []);
    await eventually(
      () => a.jobs.get("31"),
      (left) => left === undefined,
    );
  });

  it("are removed by a storage that closes before its delay is over", async () => {
    const { a, b } = db;
    await a.jobs.put(job("21"));
    await a.jobs.retire("21");
    await a.close();
    assert.equal(await b.jobs.get("21"), undefined);
  });
});
