// Where the json-file job store keeps its jobs (ADRs 0044, 0049): every new job in the job
// journal, the job files of a data directory written before in their files; and a write around a
// job that cannot be journaled changes nothing.

import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { makeJob } from "../contract/fixtures-features.ts";
import { openJsonFileStorage } from "./index.ts";
import { readJobJournals } from "./job-journal.ts";

const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;

describe("json-file job store and its journal", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "wren-job-store-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const jobFiles = async () => (await readdir(join(dir, "jobs")).catch(() => [])).sort();
  const journaledIds = async () => [...(await readJobJournals(dir)).jobs.keys()].sort();
  /** A job file as a Wren before ADR 0049 wrote it. */
  const oldJobFile = async (job: ReturnType<typeof makeJob>) => {
    await mkdir(join(dir, "jobs"), { recursive: true });
    await writeFile(join(dir, "jobs", `${job.id}.json`), `${JSON.stringify(job, null, 2)}\n`);
  };

  it("journals every new job, put around a write or not, and keeps it there", async () => {
    const storage = await openJsonFileStorage(dir);
    await storage.jobs.putAround(makeJob({ id: "10", runAt: at(30) }), () =>
      storage.statuses.put(makeStatus({ id: "20", accountId: "1" })),
    );
    await storage.jobs.put(makeJob({ id: "11", runAt: at(40) }));
    assert.deepEqual(await jobFiles(), []);
    assert.deepEqual(await journaledIds(), ["10", "11"]);

    // A retry of a journal job is a journal line too; its removal, lazy, one more.
    const [claimed] = await storage.jobs.claim(at(30), 1, at(35), "runner");
    assert.equal(claimed?.id, "10");
    const retry = { ...makeJob({ id: "10" }), runAt: at(50), attempts: 1, lastError: "boom" };
    assert.equal(await storage.jobs.reschedule(retry, "runner"), true);
    assert.equal(await storage.jobs.advanceGroup("none", at(1)), 0);
    assert.deepEqual(await jobFiles(), []);
    assert.deepEqual((await readJobJournals(dir)).jobs.get("10"), retry);
    await storage.jobs.putAround(makeJob({ id: "12", runAt: at(45) }), async () => "nothing");
    assert.equal(await storage.jobs.delete("12"), true);
    assert.equal(await storage.jobs.delete("12"), false);
    assert.equal(await storage.jobs.get("12"), undefined);
    await storage.close();
    assert.deepEqual(await journaledIds(), ["10", "11"]);

    const reopened = await openJsonFileStorage(dir);
    try {
      assert.deepEqual(await reopened.jobs.get("10"), retry);
      assert.equal(await reopened.jobs.nextRunAt(), at(40));
      assert.deepEqual(
        (await reopened.jobs.due(at(59), 10)).map((j) => j.id),
        ["11", "10"],
      );
      const [again] = await reopened.jobs.claim(at(50), 1, at(55), "b");
      assert.equal(again?.id, "11");
      assert.equal(await reopened.jobs.complete("11", "b"), true);
    } finally {
      await reopened.close();
    }
    assert.deepEqual(await journaledIds(), ["10"]);
  });

  it("keeps the job files of a data directory written before in their files", async () => {
    await oldJobFile(makeJob({ id: "10", runAt: at(30) }));
    const storage = await openJsonFileStorage(dir);
    try {
      assert.equal((await storage.jobs.get("10"))?.id, "10");
      const again = makeJob({ id: "10", runAt: at(30), attempts: 2 });
      const status = makeStatus({ id: "20", accountId: "1" });
      await storage.jobs.putAround(again, () => storage.statuses.put(status));
      assert.deepEqual(await storage.jobs.get("10"), again);
      assert.equal((await storage.statuses.get("20"))?.id, "20");
      // A retry rewrites the file; the completion removes it.
      const [claimed] = await storage.jobs.claim(at(30), 1, at(35), "runner");
      assert.equal(claimed?.id, "10");
      const retry = { ...again, runAt: at(50), attempts: 3, lastError: "boom" };
      assert.equal(await storage.jobs.reschedule(retry, "runner"), true);
      assert.deepEqual(await jobFiles(), ["10.json"]);
      assert.deepEqual(await journaledIds(), []);
      const [next] = await storage.jobs.claim(at(50), 1, at(55), "runner");
      assert.equal(next?.id, "10");
      assert.equal(await storage.jobs.complete("10", "runner"), true);
      assert.deepEqual(await jobFiles(), []);
    } finally {
      await storage.close();
    }
  });

  it("dumps the journal's jobs with the job files, by id", async () => {
    await oldJobFile(makeJob({ id: "11" }));
    const storage = await openJsonFileStorage(dir);
    try {
      await storage.jobs.putAround(makeJob({ id: "10" }), async () => {});
      const dumped: unknown[] = [];
      for await (const { kind, record } of storage.dump()) if (kind === "jobs") dumped.push(record);
      assert.deepEqual(dumped, [makeJob({ id: "10" }), makeJob({ id: "11" })]);
    } finally {
      await storage.close();
    }
  });

  it("changes nothing a write makes when its job cannot be journaled", async () => {
    const storage = await openJsonFileStorage(dir);
    try {
      const kept = makeStatus({ id: "19", accountId: "2" });
      await storage.statuses.put(kept);
      // The first append opens jobs.journal.1: a directory there makes it fail.
      await mkdir(join(dir, "jobs.journal.1"));
      const status = makeStatus({ id: "20", accountId: "1" });
      await assert.rejects(
        storage.jobs.putAround(makeJob({ id: "10" }), () => storage.statuses.put(status)),
      );
      assert.equal(await storage.statuses.get("20"), undefined);
      assert.deepEqual(await readdir(join(dir, "statuses", "1")).catch(() => []), []);
      // Nor is the status journaled: a start would write its bytes into the file (ADR 0065).
      const journals = (await readdir(dir)).filter((n) => n.startsWith("statuses.journal."));
      for (const name of journals) {
        assert.doesNotMatch(await readFile(join(dir, name), "utf8"), /1\/20/);
      }
      assert.equal(await storage.jobs.get("10"), undefined);
      // Nor is a removal: its line would remove the file at the next start.
      await assert.rejects(
        storage.jobs.putAround(makeJob({ id: "11" }), () => storage.statuses.delete("19")),
      );
      assert.deepEqual(await storage.statuses.get("19"), kept);
      for (const name of journals) {
        assert.doesNotMatch(await readFile(join(dir, name), "utf8"), /2\/19\tnull/);
      }
      // Writes outside a job's scope go on as ever.
      await storage.statuses.put(makeStatus({ id: "21", accountId: "1" }));
      assert.equal((await storage.statuses.get("21"))?.id, "21");
    } finally {
      await rm(join(dir, "jobs.journal.1"), { recursive: true });
      await storage.close();
    }
  });
});
