// Background jobs: `jobs/<job_id>.json`, one file each, removed when the job is done. In memory:
// the waiting (unfailed) jobs ordered by due time then id, so due() reads the front of the list
// and nextRunAt() its first entry without scanning; and the failed jobs, most recent failure
// first, for operators; and the waiting jobs of each group, for advanceGroup. Writes of one job
// are serialized, so a group's move and the runner's removal of a finished job never interleave.

import { compareIds } from "../../domain/ids.ts";
import type { Job } from "../../domain/job.ts";
import type { JobStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { KeyedQueue } from "./keyed-queue.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedList } from "./sorted-list.ts";

interface Entry {
  /** Milliseconds, so differently written ISO times still order correctly. */
  at: number;
  id: string;
}

const byTime = (a: Entry, b: Entry) => a.at - b.at || compareIds(a.id, b.id);

/** An unreadable time sorts first: such a job runs (and fails visibly) rather than hiding. */
const millis = (iso: string | null) => {
  const ms = iso === null ? Number.NaN : Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

export async function openJobStore(root: string, writer: DurableWriter): Promise<JobStore> {
  const waiting = new SortedList<Entry>(byTime);
  const failed = new SortedList<Entry>(byTime);
  const groups = new Map<string, Set<string>>();
  const grouped = (job: Job, change: "add" | "delete") => {
    if (job.group === undefined || job.failedAt !== null) return;
    const ids = groups.get(job.group);
    if (change === "add") {
      if (ids) ids.add(job.id);
      else groups.set(job.group, new Set([job.id]));
    } else if (ids?.delete(job.id) && ids.size === 0) {
      groups.delete(job.group);
    }
  };
  const writes = new KeyedQueue();
  const entryOf = (job: Job): [SortedList<Entry>, Entry] =>
    job.failedAt === null
      ? [waiting, { at: millis(job.runAt), id: job.id }]
      : [failed, { at: millis(job.failedAt), id: job.id }];
  const records = await RecordCollection.load<Job>(
    root,
    {
      folder: "jobs",
      depth: 0,
      // Every delivery of a fan-out is a few job writes; they must not drop kept public answers.
      outsideVersion: true,
      keyOf: (j) => j.id,
      fileOf: (j) => `${j.id}.json`,
      onChange(previous, next) {
        if (previous) {
          const [list, entry] = entryOf(previous);
          list.delete(entry);
          grouped(previous, "delete");
        }
        if (next) {
          const [list, entry] = entryOf(next);
          list.add(entry);
          grouped(next, "add");
        }
      },
    },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async put(job) {
      if (Number.isNaN(Date.parse(job.runAt))) {
        throw new Error(`Job ${job.id} has an invalid runAt: ${job.runAt}`);
      }
      await writes.run(job.id, () => records.put(job));
    },
    delete(id) {
      return writes.run(id, () => records.remove(id));
    },
    async due(now, limit) {
      const cutoff = Date.parse(now);
      const end = waiting.partition((e) => e.at <= cutoff);
      return waiting
        .view()
        .slice(0, Math.min(end, Math.max(0, limit)))
        .flatMap((e) => records.get(e.id) ?? []);
    },
    async nextRunAt() {
      const first = waiting.view()[0];
      return first === undefined ? null : (records.peek(first.id) as Job).runAt;
    },
    async advanceGroup(group, runAt) {
      const at = Date.parse(runAt);
      if (Number.isNaN(at)) throw new Error(`advanceGroup: invalid runAt ${runAt}`);
      const moved = await Promise.all(
        [...(groups.get(group) ?? [])].map((id) =>
          writes.run(id, async () => {
            // Read under the job's queue: a removal queued before this move has happened.
            const job = records.peek(id);
            if (!job || job.failedAt !== null || millis(job.runAt) <= at) return false;
            await records.put({ ...job, runAt });
            return true;
          }),
        ),
      );
      return moved.filter(Boolean).length;
    },
    async failed(limit) {
      const all = failed.view();
      return all
        .slice(Math.max(0, all.length - Math.max(0, limit)))
        .reverse()
        .flatMap((e) => records.get(e.id) ?? []);
    },
  };
}
