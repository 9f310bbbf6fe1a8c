// The job journal (ADR 0044): what a start reads back after a crash cut its last line, after
// lazy removals, and after compactions, including one a crash interrupted.

import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Job } from "../../domain/job.ts";
import { makeJob } from "../contract/fixtures-features.ts";
import { JobJournal, jobJournalNumbers, readJobJournals } from "./job-journal.ts";

const line = (job: Job) => `+${JSON.stringify(job)}\n`;
const idsOf = (jobs: Map<string, Job>) => [...jobs.keys()];

describe("job journal", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "wren-job-journal-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("skips a last line a crash cut, and starts a new journal without it", async () => {
    const whole = makeJob({ id: "10" });
    const cut = line(makeJob({ id: "11" })).slice(0, 30);
    await writeFile(join(root, "jobs.journal.4"), `${line(whole)}${cut}`);
    const { journal, jobs } = await JobJournal.open(root);
    assert.deepEqual([...jobs.values()], [whole]);
    // The live jobs went into journal 5, written whole; journal 4 is gone.
    assert.deepEqual(await jobJournalNumbers(root), [5]);
    assert.equal(journal.number, 5);
    assert.equal(await readFile(join(root, "jobs.journal.5"), "utf8"), `=\n${line(whole)}`);
    await journal.append(makeJob({ id: "12" }));
    await journal.close();
    assert.deepEqual(idsOf((await readJobJournals(root)).jobs), ["10", "12"]);
  });

  it("skips a complete line that is no job (a failed append's remains) and reads on", async () => {
    const text = `${line(makeJob({ id: "10" }))}+{"id":"11","ty\n-\n${line(makeJob({ id: "12" }))}`;
    await writeFile(join(root, "jobs.journal.1"), text);
    const replay = await readJobJournals(root);
    assert.deepEqual(idsOf(replay.jobs), ["10", "12"]);
    assert.equal(replay.skipped, 2);
  });

  it("keeps the newest line of a job and replays removals, across journals", async () => {
    await writeFile(
      join(root, "jobs.journal.1"),
      line(makeJob({ id: "10" })) + line(makeJob({ id: "11" })) + line(makeJob({ id: "12" })),
    );
    await writeFile(
      join(root, "jobs.journal.2"),
      `-11\n${line(makeJob({ id: "10", attempts: 3 }))}-99\n`,
    );
    const { jobs } = await readJobJournals(root);
    assert.deepEqual(idsOf(jobs), ["12", "10"]);
    assert.equal(jobs.get("10")?.attempts, 3);
  });

  it("writes a removal without being asked to wait, and a restart replays it", async () => {
    const { journal } = await JobJournal.open(root);
    await Promise.all(["10", "11", "12"].map((id) => journal.append(makeJob({ id }))));
    journal.remove("11");
    await journal.flush();
    // No close: what a SIGKILL now leaves (the removal is in the file, unsynced).
    const { jobs } = await readJobJournals(root);
    assert.deepEqual(idsOf(jobs).sort(), ["10", "12"]);
    await journal.close();
  });

  it("writes pending removals at close", async () => {
    const { journal } = await JobJournal.open(root);
    await journal.append(makeJob({ id: "10" }));
    journal.remove("10");
    await journal.close();
    assert.deepEqual(idsOf((await readJobJournals(root)).jobs), []);
    // Nothing is written after the close; the append is refused.
    journal.remove("11");
    await assert.rejects(journal.append(makeJob({ id: "12" })), /closed/);
  });

  it("compacts a long journal into the live jobs, whole, and drops the old one", async () => {
    const { journal } = await JobJournal.open(root, { compactAfter: 10 });
    for (let n = 0; n < 40; n++) {
      const id = String(100 + n);
      await journal.append(makeJob({ id }));
      if (n % 4 !== 0) journal.remove(id);
    }
    await journal.append(makeJob({ id: "100", attempts: 2 }));
    assert.ok(journal.compactions >= 2, `${journal.compactions} compactions`);
    const numbers = await jobJournalNumbers(root);
    assert.deepEqual(numbers, [journal.number]);
    const text = await readFile(join(root, `jobs.journal.${journal.number}`), "utf8");
    assert.ok(text.startsWith("=\n"), "a compacted journal says it holds the whole state");
    const live = ["104", "108", "112", "116", "120", "124", "128", "132", "136", "100"];
    assert.deepEqual(idsOf((await readJobJournals(root)).jobs), live);
    assert.equal((await readJobJournals(root)).jobs.get("100")?.attempts, 2);
    await journal.close();
    // A restart compacts once more and reads the same jobs.
    const reopened = await JobJournal.open(root);
    assert.deepEqual(idsOf(reopened.jobs), live);
    await reopened.journal.close();
  });

  it("lets a compacted journal override older ones a crash left behind", async () => {
    // A crash after the compacted journal was renamed into place, before the old one went: the
    // old one still holds job 10, whose removal was lazy and never written.
    await writeFile(join(root, "jobs.journal.3"), line(makeJob({ id: "10" })));
    await writeFile(join(root, "jobs.journal.4"), `=\n${line(makeJob({ id: "11" }))}`);
    const { journal, jobs } = await JobJournal.open(root);
    assert.deepEqual(idsOf(jobs), ["11"]);
    await journal.close();
    assert.deepEqual(await readdir(root), ["jobs.journal.5"]);
  });

  it("writes nothing at an open for inspection", async () => {
    await writeFile(join(root, "jobs.journal.2"), line(makeJob({ id: "10" })));
    const { journal, jobs } = await JobJournal.open(root, { readOnlyOpen: true });
    assert.deepEqual(idsOf(jobs), ["10"]);
    await journal.close();
    assert.deepEqual(await readdir(root), ["jobs.journal.2"]);
  });
});
