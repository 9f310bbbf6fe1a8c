// The json-file job store holds a fan-out's shared part once (ADR 0078): the jobs of one name
// read back share one frozen object, while each journal line still says the whole job.

import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Job } from "../../domain/job.ts";
import { makeJob } from "../contract/fixtures-features.ts";
import { openJsonFileStorage } from "./index.ts";
import { readJobJournals } from "./job-journal.ts";
import { sharedPartsKept } from "./job-shared-parts.ts";

const at = "2025-01-01T00:00:00.000Z";
const part = () => ({
  activity: { "@context": ["https://www.w3.org/ns/activitystreams"], id: "https://a/1", n: [1, 2] },
  keys: [{ keyId: "https://a/u#k", privateKey: { kty: "RSA", d: "x" } }],
});
const delivery = (id: string, inbox: string, shared = "fan-1"): Job => ({
  ...makeJob({ id, runAt: at }),
  type: "federation.task",
  payload: { message: { type: "outbox", inbox, attempt: 0 }, shared: part() },
  shared,
  orderingKey: `https://a/1\n${inbox}`,
});

describe("a fan-out's shared part in the json-file job store", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-job-shared-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("gives every job of one name the same frozen part, and journals each whole", async () => {
    const storage = await openJsonFileStorage(dir);
    const jobs = [delivery("1", "https://b/inbox"), delivery("2", "https://c/inbox")];
    const other = delivery("3", "https://d/inbox", "fan-2");
    await Promise.all([...jobs, other].map((job) => storage.jobs.put(job)));
    const claimed = await storage.jobs.claim(at, 10, "2025-01-01T00:05:00.000Z", "runner");
    assert.deepEqual(
      claimed.map((job) => job.id),
      ["1", "2", "3"],
    );
    const [first, second, third] = claimed as [Job, Job, Job];
    assert.equal(first.payload.shared, second.payload.shared);
    assert.notEqual(first.payload.shared, third.payload.shared);
    assert.ok(Object.isFrozen(first.payload.shared));
    assert.ok(Object.isFrozen(first.payload.message));
    assert.deepEqual(claimed, [...jobs, other]);
    // Not the caller's objects.
    assert.notEqual(first.payload.shared, jobs[0]?.payload.shared);
    await storage.close();

    assert.deepEqual([...(await readJobJournals(dir)).jobs.values()], [...jobs, other]);
    const reopened = await openJsonFileStorage(dir);
    try {
      assert.deepEqual(await reopened.jobs.get("2"), jobs[1]);
    } finally {
      await reopened.close();
    }
  });

  it("writes the text JSON.stringify would, but for the order of members", () => {
    const keep = sharedPartsKept();
    for (const job of [
      delivery("1", "https://b/inbox"),
      { ...delivery("2", "https://b/inbox"), payload: { shared: part() } },
      { ...delivery("3", "https://b/inbox"), group: "g", failedAt: null, lastError: 'a "b"' },
      makeJob({ id: "4", runAt: at }),
    ]) {
      const { value, json } = keep(job);
      assert.deepEqual(JSON.parse(json), job);
      assert.deepEqual(value, job);
      assert.notEqual(value, job);
    }
  });
});
