// Background jobs as lines of the job journal (job-journal.ts; ADR 0044 for the records of events
// written around a write, ADR 0049 for every job): storing a job is one group-committed line,
// one fdatasync shared by every job stored in the same turn, where a file per job cost a
// temporary file, its fsync, a rename and a directory fsync, and its removal an unlink and
// another directory fsync; removals are lazy. Data directories written before keep their job
// files, `jobs/<job_id>.json`: a job stays where it was first stored (a file job's retry or
// group move rewrites its file, its removal unlinks it). In memory: the waiting (unfailed) jobs
// ordered by due time then id, so claim() reads the front of the list and nextRunAt() its first
// entry without scanning; and the failed jobs, most recent failure first, for operators; and the
// waiting jobs of each group, for advanceGroup. Writes of one job are serialized, so a group's
// move and the runner's removal of a finished job never interleave.
//
// Claims (leases) live in memory only. One process holds a data directory (the lock file), so a
// lease outlives its holder only when the process dies, and then the lock proves the holder gone:
// a restarted process starts with no leases and takes its predecessor's unfinished jobs at once
// (they run again, as after any crash: handlers are idempotent). The journal relies on the same
// lock: one process appends to it.

import { deepFreeze } from "../../domain/deep-freeze.ts";
import { compareIds } from "../../domain/ids.ts";
import type { Job } from "../../domain/job.ts";
import type { KvEntry } from "../kv-port.ts";
import type { JobStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { JobJournal, type JobJournalOptions } from "./job-journal.ts";
import { sharedPartsKept } from "./job-shared-parts.ts";
import { KeyedQueue } from "./keyed-queue.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedList } from "./sorted-list.ts";

interface Entry {
  /** Milliseconds, so differently written ISO times still order correctly. */
  at: number;
  id: string;
}

const byTime = (a: Entry, b: Entry) => a.at - b.at || compareIds(a.id, b.id);

interface Lease {
  owner: string;
  /** Lease end in ms; Infinity while its owner's finishing write is under way. */
  until: number;
  /** The lease end as the owner gave it, for nextRunAt. */
  iso: string;
}

const parseTime = (iso: string, what: string) => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`${what}: invalid time ${iso}`);
  return ms;
};

/** An unreadable time sorts first: such a job runs (and fails visibly) rather than hiding. */
const millis = (iso: string | null) => {
  const ms = iso === null ? Number.NaN : Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

/** The port plus what only the backend itself uses. */
export interface JsonFileJobStore extends JobStore {
  /** Writes the journal's pending removals durably and closes it (at the storage's close). */
  closeJournal(): Promise<void>;
  /**
   * The journal, for the key–value entries kept in it (kv-store.ts, ADR 0052), and those it
   * read back at open.
   */
  readonly entryJournal: { journal: JobJournal; entries: Map<string, KvEntry> };
}

export async function openJobStore(
  root: string,
  writer: DurableWriter,
  options: JobJournalOptions = {},
): Promise<JsonFileJobStore> {
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
  const leases = new Map<string, Lease>();
  /** Runs `write` if `owner` holds the job's lease, which no claim can take meanwhile. */
  const asOwner = (id: string, owner: string, write: () => Promise<unknown>) =>
    writes.run(id, async () => {
      const lease = leases.get(id);
      if (lease?.owner !== owner) return false;
      lease.until = Number.POSITIVE_INFINITY;
      try {
        await write();
      } catch (error) {
        // Not written: the job is still the owner's, under its lease as given.
        lease.until = Date.parse(lease.iso);
        throw error;
      }
      leases.delete(id);
      return true;
    });
  const entryOf = (job: Job): [SortedList<Entry>, Entry] =>
    job.failedAt === null
      ? [waiting, { at: millis(job.runAt), id: job.id }]
      : [failed, { at: millis(job.failedAt), id: job.id }];
  /** Keeps the lists in step with the job visible under an id. */
  const reindex = (previous: Job | undefined, next: Job | undefined) => {
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
  };
  const records = await RecordCollection.load<Job>(
    root,
    {
      folder: "jobs",
      depth: 0,
      // Every delivery of a fan-out is a few job writes; they must not drop kept public answers.
      outsideVersion: true,
      keyOf: (j) => j.id,
      fileOf: (j) => `${j.id}.json`,
      onChange: reindex,
    },
    writer,
  );
  /** The journal's jobs (frozen), by id. */
  const journaled = new Map<string, Job>();
  const kept = sharedPartsKept();
  const { journal, jobs: replayed, entries } = await JobJournal.open(root, options);
  for (const [id, job] of replayed) {
    // Never both by construction; a file beside a journal line would be an older Wren's.
    if (records.peek(id)) continue;
    const frozen = deepFreeze(job);
    journaled.set(id, frozen);
    reindex(undefined, frozen);
  }

  const peek = (id: string): Job | undefined => records.peek(id) ?? journaled.get(id);

  /** Appends the job to the journal; it shows once durable. Under the job's write queue. */
  async function putInJournal(job: Job): Promise<void> {
    // Exactly what a restart reads back, detached from the caller's object (a fan-out's shared
    // part held once, job-shared-parts.ts); the journal line is that text.
    const { value, json } = kept(job);
    await journal.append(value, json);
    const previous = journaled.get(value.id);
    journaled.set(value.id, value);
    reindex(previous, value);
  }

  /**
   * Stores the job where it lives: a file job (an older Wren's) in its file, any other in the
   * journal. Under the job's write queue.
   */
  function store(job: Job): Promise<void> {
    return records.peek(job.id) ? records.put(job) : putInJournal(job);
  }

  /** Removes the job; a journal job at once, its line written lazily (job-journal.ts). */
  function unstore(id: string): Promise<boolean> {
    const job = journaled.get(id);
    if (job === undefined) return records.remove(id);
    journaled.delete(id);
    reindex(job, undefined);
    journal.remove(id);
    return Promise.resolve(true);
  }

  const validRunAt = (job: Job) => {
    if (Number.isNaN(Date.parse(job.runAt))) {
      throw new Error(`Job ${job.id} has an invalid runAt: ${job.runAt}`);
    }
  };

  async function put(job: Job): Promise<void> {
    validRunAt(job);
    await writes.run(job.id, async () => {
      await store(job);
      leases.delete(job.id);
    });
  }

  function remove(id: string): Promise<boolean> {
    return writes.run(id, async () => {
      const removed = await unstore(id);
      leases.delete(id);
      return removed;
    });
  }

  return {
    async get(id) {
      return peek(id);
    },
    put,
    // The job's journal line is appended while the write runs; every file the write changes
    // waits for the line to be durable (write-gate.ts), so no change is ever without its job.
    async putAround(job, write) {
      validRunAt(job);
      // Every caller gives a new job. One already in a file (an older Wren's) stays there, stored
      // first: the gate below must never wait for the durable writer, whose batch would wait for
      // the gate.
      if (records.peek(job.id)) {
        await put(job);
        return write();
      }
      const stored = writes.run(job.id, async () => {
        await putInJournal(job);
        leases.delete(job.id);
      });
      const written = writer.gates.run(stored, async () => write());
      // The job is kept whatever the write did (it may have changed something before failing);
      // the write's failure is the one told, else the job's.
      const [result, record] = await Promise.allSettled([written, stored]);
      if (result.status === "rejected") throw result.reason;
      if (record.status === "rejected") throw record.reason;
      return result.value;
    },
    delete: remove,
    // Removed at once: a journal job's removal is a line appended lazily (job-journal.ts).
    async retire(id) {
      await remove(id);
    },
    async claim(now, limit, leaseUntil, owner) {
      const cutoff = parseTime(now, "claim");
      const until = parseTime(leaseUntil, "claim");
      const taken: Job[] = [];
      // Synchronous from here on: no other claim runs in between.
      for (const entry of waiting.view()) {
        if (taken.length >= limit || entry.at > cutoff) break;
        const lease = leases.get(entry.id);
        if (lease && lease.until > cutoff) continue;
        const job = peek(entry.id);
        if (!job) continue;
        leases.set(entry.id, { owner, until, iso: leaseUntil });
        taken.push(job);
      }
      return taken;
    },
    async renew(ids, owner, leaseUntil) {
      const until = parseTime(leaseUntil, "renew");
      return ids.filter((id) => {
        const lease = leases.get(id);
        if (lease?.owner !== owner) return false;
        if (lease.until !== Number.POSITIVE_INFINITY) lease.until = until;
        lease.iso = leaseUntil;
        return true;
      });
    },
    complete(id, owner) {
      return asOwner(id, owner, () => unstore(id));
    },
    async reschedule(job, owner) {
      validRunAt(job);
      return asOwner(job.id, owner, () => store(job));
    },
    async due(now, limit) {
      const cutoff = Date.parse(now);
      const end = waiting.partition((e) => e.at <= cutoff);
      return waiting
        .view()
        .slice(0, Math.min(end, Math.max(0, limit)))
        .flatMap((e) => peek(e.id) ?? []);
    },
    async nextRunAt() {
      // Leased jobs are few (the ones running), so both walks are short.
      let next: { at: number; iso: string } | undefined;
      for (const entry of waiting.view()) {
        if (leases.has(entry.id)) continue;
        next = { at: entry.at, iso: (peek(entry.id) as Job).runAt };
        break;
      }
      for (const lease of leases.values()) {
        const at = Date.parse(lease.iso);
        if (next === undefined || at < next.at) next = { at, iso: lease.iso };
      }
      return next?.iso ?? null;
    },
    async advanceGroup(group, runAt) {
      const at = Date.parse(runAt);
      if (Number.isNaN(at)) throw new Error(`advanceGroup: invalid runAt ${runAt}`);
      const moved = await Promise.all(
        [...(groups.get(group) ?? [])].map((id) =>
          writes.run(id, async () => {
            // Read under the job's queue: a removal queued before this move has happened.
            const job = peek(id);
            if (!job || job.failedAt !== null || millis(job.runAt) <= at) return false;
            if (leases.has(id)) return false;
            await store({ ...job, runAt });
            return true;
          }),
        ),
      );
      return moved.filter(Boolean).length;
    },
    // One process per data directory: its own enqueues wake its runner (durable-queue.ts).
    watch() {
      return () => {};
    },
    async failed(limit) {
      const all = failed.view();
      return all
        .slice(Math.max(0, all.length - Math.max(0, limit)))
        .reverse()
        .flatMap((e) => peek(e.id) ?? []);
    },
    async deleteFailedBefore(before, limit) {
      const cutoff = parseTime(before, "deleteFailedBefore");
      const old: string[] = [];
      for (const entry of failed.view()) {
        if (old.length >= limit || entry.at >= cutoff) break;
        old.push(entry.id);
      }
      let removed = 0;
      for (const id of old) {
        const gone = await writes.run(id, async () => {
          // Read under the job's queue: an operator may have retried it meanwhile.
          const job = peek(id);
          if (!job || job.failedAt === null || millis(job.failedAt) >= cutoff) return false;
          return unstore(id);
        });
        if (gone) removed++;
      }
      return removed;
    },
    closeJournal: () => journal.close(),
    entryJournal: { journal, entries },
  };
}
