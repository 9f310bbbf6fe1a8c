// The job journal (ADR 0044): jobs kept as lines of an append-only file instead of a file each.
// It holds the records of events written around their write (JobStore.putAround): one line
// appended with group commit (one write and one fdatasync for every job asked for in the same
// turn), where a job file cost a temporary file, its fsync, a rename and a directory fsync, and
// its removal an unlink and another directory fsync.
//
// Lines: `+<job as JSON>` stores or replaces a job; `-<id>` removes it; a file whose first line
// is `=` holds the whole state (a compaction): what earlier journals said no longer counts.
// Since ADR 0052 the journal also holds the key–value entries of the families kv-store.ts names
// (the inbox's once-records, one per activity): `*<entry as JSON>` stores or replaces one,
// `~<its key as JSON>` removes it; both durable, so they share the fdatasync of the jobs
// (accepted inbox activities) asked for in the same turn instead of costing a file each.
//
// Removals are lazy: written with the next batch, and fsynced only when that batch holds a job
// that must be durable (or at close). A removal that a crash loses brings its job back at start,
// and it runs again: an event's listeners are idempotent and an intent is confirmed against
// storage first (ADR 0013), so the price of a lost removal is a repeat, never a loss.
//
// Journals are numbered (`jobs.journal.<n>`). Each start writes the jobs still live into a new
// number (temporary file, fsync, rename, directory fsync: it exists whole or not at all), then
// removes the older ones, and appends to it; so a line torn by a crash is only ever at the end of
// a journal that nothing appends to again, and is skipped when read. While running, the journal
// is compacted the same way once its lines outnumber the live jobs enough.

import { type FileHandle, open, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import { cannotStore } from "../../domain/errors.ts";
import type { Job } from "../../domain/job.ts";
import { PRIVATE_FILE_MODE } from "../../private-modes.ts";
import type { KvEntry } from "../kv-port.ts";
import { TEMP_SUFFIX } from "./durable-writer.ts";
import { journalNumbers } from "./status-journal.ts";
import { openForAppend, syncDir } from "./sync-dir.ts";
import type { WriteFaults } from "./write-faults.ts";

const logger = getLogger(["wren", "storage", "jobs"]);

const PREFIX = "jobs.journal.";
const WHOLE = "=";

/** Lines in the current journal after which it is compacted, at least (default). */
export const MIN_COMPACT_AFTER = 2_000;

/** The job journal numbers present in `root`, ascending. */
export const jobJournalNumbers = (root: string) => journalNumbers(root, PREFIX);

export interface JournalReplay {
  /** The live jobs, in the order their newest line was written. */
  jobs: Map<string, Job>;
  /** The live key–value entries, by their key as JSON (entryKey). */
  entries: Map<string, KvEntry>;
  numbers: number[];
  /** Complete lines that were not a job or a removal (a failed append's remains). */
  skipped: number;
}

const isJob = (value: unknown): value is Job =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as Job).id === "string" &&
  (value as Job).id !== "" &&
  typeof (value as Job).type === "string" &&
  typeof (value as Job).runAt === "string";

const isEntry = (value: unknown): value is KvEntry =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Array.isArray((value as KvEntry).key) &&
  (value as KvEntry).key.length > 0 &&
  (value as KvEntry).key.every((segment) => typeof segment === "string") &&
  ((value as KvEntry).expiresAt === null || typeof (value as KvEntry).expiresAt === "string");

/** What a key–value entry is filed under in the journal (a removal line names it). */
export const entryKey = (key: readonly string[]): string => JSON.stringify(key);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Applies one key–value line (`*` or `~`); false when it is not one. */
function applyEntryLine(entries: Map<string, KvEntry>, line: string): boolean {
  const value = parsed(line.slice(1));
  if (line.startsWith("~")) {
    if (!Array.isArray(value) || value.length === 0) return false;
    entries.delete(entryKey(value as string[]));
    return true;
  }
  if (!isEntry(value)) return false;
  const key = entryKey(value.key);
  entries.delete(key);
  entries.set(key, value);
  return true;
}

/** Applies one complete line; false when it is neither a job, an entry nor a removal. */
function applyLine(jobs: Map<string, Job>, entries: Map<string, KvEntry>, line: string): boolean {
  if (line.startsWith("-") && line.length > 1) {
    jobs.delete(line.slice(1));
    return true;
  }
  if (line.startsWith("*") || line.startsWith("~")) return applyEntryLine(entries, line);
  if (!line.startsWith("+")) return false;
  let job: unknown;
  try {
    job = JSON.parse(line.slice(1));
  } catch {
    return false;
  }
  if (!isJob(job)) return false;
  // Deleted first: a replaced job moves to the end, where its newest line is.
  jobs.delete(job.id);
  jobs.set(job.id, job);
  return true;
}

/**
 * The jobs the journals in `root` hold. A last line without its newline was never acknowledged
 * (a crash cut it, or a failed append left it): skipped.
 */
export async function readJobJournals(root: string): Promise<JournalReplay> {
  const jobs = new Map<string, Job>();
  const entries = new Map<string, KvEntry>();
  const numbers = await jobJournalNumbers(root);
  let skipped = 0;
  for (const n of numbers) {
    const text = await readFile(join(root, `${PREFIX}${n}`), "utf8").catch((error) => {
      // Removed by a compaction between the listing and here (a dump while running).
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
      throw error;
    });
    const lines = text.split("\n");
    lines.pop(); // after the last newline: empty, or a line a crash cut
    if (lines[0] === WHOLE) {
      jobs.clear();
      entries.clear();
    }
    for (const line of lines) {
      if (line === WHOLE || line === "") continue;
      if (!applyLine(jobs, entries, line)) skipped++;
    }
  }
  return { jobs, entries, numbers, skipped };
}

interface Pending {
  line: string;
  /** Set for a job's line: resolved once durable. Removals have none (lazy). */
  waiter?: { resolve(): void; reject(error: unknown): void };
  /** Runs once the line is in the file (durably, for a job). */
  written?(): void;
}

export interface JobJournalOptions {
  /** Lines after which the journal is compacted (at least; default MIN_COMPACT_AFTER). */
  compactAfter?: number;
  /** `wren doctor`: nothing is written at open (no compaction). */
  readOnlyOpen?: boolean;
  /** Tests only (write-faults.ts): appends fail as on a full or read-only disk. */
  faults?: WriteFaults;
}

export class JobJournal {
  readonly #root: string;
  #number: number;
  #handle: FileHandle | undefined;
  #pending: Pending[] = [];
  #draining: Promise<void> | undefined;
  /** After a failed append the file may end in a cut line: the next batch starts a new one. */
  #newLine = false;
  /** Lines written to the file but not fsynced (removals): the close syncs them. */
  #unsynced = false;
  /** The line of each live job: what a compaction writes. */
  readonly #live = new Map<string, string>();
  /** The line of each live key–value entry, by entryKey: what a compaction writes too. */
  readonly #liveEntries = new Map<string, string>();
  /** Lines in the current file. */
  #lines = 0;
  #compactAt: number;
  readonly #compactAfter: number;
  readonly #faults: WriteFaults | undefined;
  #closed = false;
  /** Compactions done (tests). */
  compactions = 0;

  private constructor(
    root: string,
    number: number,
    compactAfter: number,
    faults: WriteFaults | undefined,
  ) {
    this.#root = root;
    this.#faults = faults;
    this.#number = number;
    this.#compactAfter = compactAfter;
    this.#compactAt = compactAfter;
  }

  /**
   * Reads the journals of `root` and returns the live jobs; unless `readOnlyOpen`, they are
   * written into a fresh journal (this run's) and the older journals removed.
   */
  static async open(
    root: string,
    options: JobJournalOptions = {},
  ): Promise<{ journal: JobJournal; jobs: Map<string, Job>; entries: Map<string, KvEntry> }> {
    const replay = await readJobJournals(root);
    if (replay.skipped > 0) {
      logger.warn("Skipped {count} unreadable line(s) of the job journals in {root}", {
        count: replay.skipped,
        root,
      });
    }
    const last = replay.numbers.at(-1) ?? 0;
    const journal = new JobJournal(
      root,
      last,
      options.compactAfter ?? MIN_COMPACT_AFTER,
      options.faults,
    );
    for (const [id, job] of replay.jobs) journal.#live.set(id, `+${JSON.stringify(job)}`);
    for (const [key, entry] of replay.entries) {
      journal.#liveEntries.set(key, `*${JSON.stringify(entry)}`);
    }
    if (replay.numbers.length > 0 && !options.readOnlyOpen) await journal.#compact();
    else journal.#number = last + 1;
    return { journal, jobs: replay.jobs, entries: replay.entries };
  }

  /** The journal appended to now (tests). */
  get number(): number {
    return this.#number;
  }

  /** Appends `job` (`json`, its JSON text, if the caller has it); resolves once durable. */
  append(job: Job, json = JSON.stringify(job)): Promise<void> {
    const line = `+${json}`;
    return this.#durable(line, `job ${job.id}`, () => {
      this.#live.delete(job.id);
      this.#live.set(job.id, line);
    });
  }

  /**
   * Stores a key–value entry (its key filed by entryKey); resolves once durable, in the same
   * group commit as the jobs and entries asked for in this turn.
   */
  setEntry(entry: KvEntry): Promise<void> {
    const line = `*${JSON.stringify(entry)}`;
    const key = entryKey(entry.key);
    return this.#durable(line, `entry ${key}`, () => {
      this.#liveEntries.delete(key);
      this.#liveEntries.set(key, line);
    });
  }

  /** Removes a key–value entry; resolves once durable (a key–value delete is acknowledged so). */
  removeEntry(key: readonly string[]): Promise<void> {
    const filed = entryKey(key);
    return this.#durable(`~${filed}`, `entry ${filed}`, () => this.#liveEntries.delete(filed));
  }

  #durable(line: string, what: string, written: () => void): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`Storage is closed; cannot write ${what}`));
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    this.#push({ line, waiter: { resolve, reject }, written });
    return promise;
  }

  /** Records that `id` is gone, lazily: written with the next batch, not awaited, not fsynced. */
  remove(id: string): void {
    this.#live.delete(id);
    // After the close nothing is written: the job comes back at the next start and runs again.
    if (this.#closed) return;
    this.#push({ line: `-${id}` });
  }

  /** Resolves once every line asked for so far is in the file (removals unsynced). */
  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /** Writes what is pending, fsyncs what was written without it, and closes the file. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    try {
      if (this.#unsynced) await this.#handle?.datasync();
    } finally {
      await this.#handle?.close();
      this.#handle = undefined;
    }
  }

  #push(pending: Pending): void {
    this.#pending.push(pending);
    this.#draining ??= new Promise<void>((r) => setImmediate(r)).then(() => this.#drain());
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      if (this.#lines >= this.#compactAt) await this.#compactOrWait();
      const batch = this.#pending.splice(0);
      const durable = batch.some((p) => p.waiter !== undefined);
      try {
        this.#faults?.check("write", this.#path(this.#number));
        const handle = await this.#open();
        const text = batch.map((p) => `${p.line}\n`).join("");
        await handle.appendFile(this.#newLine ? `\n${text}` : text);
        this.#newLine = false;
        this.#lines += batch.length;
        if (durable) await handle.datasync();
        this.#unsynced = !durable;
        for (const p of batch) {
          p.written?.();
          p.waiter?.resolve();
        }
      } catch (error) {
        this.#newLine = true;
        // Reopened by the next batch: a handle that failed (EIO, a remount) may stay broken.
        await this.#handle?.close().catch(() => {});
        this.#handle = undefined;
        if (batch.some((p) => p.waiter === undefined)) {
          logger.warn("Could not write job removals ({error}): those jobs may run again", {
            error: String(error),
          });
        }
        // A full or read-only disk, or an I/O error, is said as such (507), like any refused write.
        const refusal = cannotStore(error, this.#path(this.#number)) ?? error;
        for (const p of batch) p.waiter?.reject(refusal);
      }
    }
    this.#draining = undefined;
  }

  async #open(): Promise<FileHandle> {
    this.#handle ??= await openForAppend(this.#root, this.#path(this.#number));
    return this.#handle;
  }

  /** A failed compaction is tried again only after as many lines again (a full disk). */
  async #compactOrWait(): Promise<void> {
    try {
      await this.#compact();
    } catch (error) {
      this.#compactAt =
        this.#lines + Math.max(this.#compactAfter, (this.#live.size + this.#liveEntries.size) * 4);
      logger.warn("Could not compact the job journal in {root}: {error}", {
        root: this.#root,
        error: String(error),
      });
    }
  }

  /**
   * The live jobs into the next journal, written whole (temporary file, fsync, rename, directory
   * fsync), which then takes the appends; the older journals go. Runs between batches only.
   */
  async #compact(): Promise<void> {
    const next = this.#number + 1;
    const path = this.#path(next);
    const temp = `${path}.${process.pid}${TEMP_SUFFIX}`;
    const lines = [WHOLE, ...this.#live.values(), ...this.#liveEntries.values()];
    const handle = await open(temp, "w", PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(lines.map((l) => `${l}\n`).join(""));
      await handle.datasync();
    } catch (error) {
      await handle.close();
      await rm(temp, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temp, path);
    await syncDir(this.#root);
    await this.#handle?.close().catch(() => {});
    this.#handle = undefined;
    this.#newLine = false;
    this.#unsynced = false;
    this.#number = next;
    this.#lines = lines.length;
    this.#compactAt = Math.max(this.#compactAfter, (this.#live.size + this.#liveEntries.size) * 4);
    this.compactions++;
    // The new journal says everything: the old ones are obsolete even if a crash keeps them.
    for (const n of await jobJournalNumbers(this.#root)) {
      if (n < next) await rm(this.#path(n), { force: true });
    }
  }

  #path(n: number): string {
    return join(this.#root, `${PREFIX}${n}`);
  }
}
