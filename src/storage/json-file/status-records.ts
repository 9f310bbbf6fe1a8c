// The statuses of the json-file backend: one file per status (`statuses/<account_id>/<id>.json`)
// as ever, but memory holds only a compact row per status (status-table.ts) plus a bounded
// cache of recently used bodies; other bodies are read from their files on demand. At start the
// summaries come from the last snapshot when it is usable (status-snapshot.ts) plus the files
// its journals name (status-journal.ts), otherwise from reading every file. Every status write
// is journaled before its file is written; a snapshot is written after many writes and at a
// clean close (ADR 11): both in status-journaling.ts.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import { deepFreeze } from "../../domain/deep-freeze.ts";
import { compareIds } from "../../domain/ids.ts";
import { LruCache } from "../../domain/lru-cache.ts";
import type { Status } from "../../domain/status.ts";
import { type DurableWriter, ignoreCode } from "./durable-writer.ts";
import { HeapWatch, type HeapWatchOptions } from "./heap-watch.ts";
import { forEachLimit } from "./parallel.ts";
import {
  DamagedRecordError,
  isDamage,
  isInspecting,
  noteLoaded,
  noteRestorable,
  reportDamage,
} from "./quarantine.ts";
import {
  type CollectionSpec,
  listRecordFiles,
  parseRecordFile,
  safeFileOf,
} from "./record-collection.ts";
import { logSnapshotUnused } from "./snapshot-unused-log.ts";
import { StatusFiler } from "./status-filer.ts";
import { journalNumbers } from "./status-journal.ts";
import { MIN_CHECKPOINT_EVERY, StatusJournaling } from "./status-journaling.ts";
import { journalDifferences, restoreFromJournals } from "./status-replay.ts";
import { readSnapshot, SNAPSHOT_FILE, type SnapshotResult } from "./status-snapshot.ts";
import { type StatusSummary, summarize } from "./status-summary.ts";
import { StatusTable } from "./status-table.ts";
import { sortYielding } from "./yielding-sort.ts";

const logger = getLogger(["wren", "storage"]);

const spec: Pick<CollectionSpec<Status>, "folder" | "depth" | "fileOf"> = {
  folder: "statuses",
  depth: 1,
  fileOf: (s) => `${s.accountId}/${s.id}.json`,
};

export interface StatusRecordsOptions {
  /** Bodies kept in memory (most recently used). */
  cacheSize?: number;
  /** The snapshot if already read (see readSnapshot); read here otherwise. */
  snapshot?: SnapshotResult;
  /**
   * Journal lines after which a snapshot is written while running; by default a twentieth of
   * the statuses, at least MIN_CHECKPOINT_EVERY (start-up then reads at most that many files).
   */
  checkpointEvery?: number;
  /** The heap limit and warnings (tests give a small fake limit). */
  heap?: HeapWatchOptions;
  /** Made once the table exists: told of every change of a row, once per status while loading. */
  listen(table: StatusTable): StatusListener;
}

/** What keeps indexes of the rows in step (StatusIndexes). */
export interface StatusListener {
  /** Before the row changes or goes: it still holds the status as it was. */
  leave(row: number): void;
  /** Once the row holds the status, new or changed. */
  enter(row: number): void;
}

/** Enough for the recent statuses that timelines read over and over (~1–3 kB each). */
export const DEFAULT_BODY_CACHE = 20_000;

export class StatusRecords {
  readonly #root: string;
  readonly #dir: string;
  readonly #writer: DurableWriter;
  #table: StatusTable;
  #listener: StatusListener;
  readonly #bodies: LruCache<string, Status>;
  /** One read per body at a time: a page asked for by many clients at once reads it once. */
  readonly #reading = new Map<string, Promise<Status | undefined>>();
  /** Where the summaries came from at start (or why the snapshot was not used). */
  #loadedFrom: "snapshot" | Exclude<SnapshotResult, { ok: true }>["reason"] = "missing";
  readonly #journaling: StatusJournaling;
  /** Writes the files of acknowledged puts and pins their bodies meanwhile (ADR 0084). */
  readonly #filer: StatusFiler;
  /** An inspection's view of the files a start would restore first (file → bytes, or null). */
  #overlay: ReadonlyMap<string, string | null> = new Map();
  /** Status files read at start (tests check that a start after a crash reads few). */
  #filesRead = 0;
  readonly #heap: HeapWatch;
  readonly #putting = new Set<Promise<void>>();
  /** The last write of each status under way: the next one waits for it. */
  readonly #writing = new Map<string, Promise<void>>();
  #closed = false;

  private constructor(
    root: string,
    writer: DurableWriter,
    options: StatusRecordsOptions,
    journal: number,
    table: StatusTable,
  ) {
    this.#table = table;
    this.#listener = options.listen(table);
    this.#root = root;
    this.#heap = new HeapWatch(options.heap);
    this.#dir = join(root, spec.folder);
    this.#writer = writer;
    const filer = new StatusFiler(this.#dir, writer);
    this.#filer = filer;
    this.#journaling = new StatusJournaling({
      root,
      dir: this.#dir,
      writer,
      journal,
      table: () => this.#table,
      checkpointEvery: options.checkpointEvery,
      unfiled: filer,
    });
    this.#bodies = new LruCache(options.cacheSize ?? DEFAULT_BODY_CACHE);
  }

  static async open(
    root: string,
    writer: DurableWriter,
    options: StatusRecordsOptions,
  ): Promise<StatusRecords> {
    const { snapshot: given, ...kept } = options;
    const snapshot = given ?? (await readSnapshot(root));
    // A new journal for this run, above the snapshot's and every existing one: a journal a
    // crash cut is never appended to again, and the next start replays this one.
    const last = Math.max(snapshot.ok ? snapshot.journal : 0, ...(await journalNumbers(root)));
    // Before any status file is read: every file whose journal line holds bytes the file does
    // not (a power cut came before the kernel wrote it back) is written again (ADR 0065).
    // An inspection writes nothing: it reads those files as the journal has them, as a start
    // would find them, and tells the inspector which they are.
    const dir = join(root, spec.folder);
    const from = snapshot.ok ? snapshot.journal : 0;
    let overlay: ReadonlyMap<string, string | null> = new Map();
    if (isInspecting(writer)) {
      overlay = (await journalDifferences(root, dir, from)).differ;
      for (const file of overlay.keys()) noteRestorable(writer, join(dir, file));
    } else {
      await restoreFromJournals(root, dir, from, writer);
    }
    const table = snapshot.ok ? snapshot.table : new StatusTable();
    const records = new StatusRecords(root, writer, kept, last + 1, table);
    records.#overlay = overlay;
    if (snapshot.ok) {
      records.#loadedFrom = "snapshot";
      for (const row of table.rows()) records.#listener.enter(row);
      await records.#reread(snapshot.changed);
      records.#journaling.stale = snapshot.changed.size > 0;
    } else {
      records.#loadedFrom = snapshot.reason;
      await records.#scan();
      logSnapshotUnused(join(root, SNAPSHOT_FILE), snapshot.reason, table.size);
      // So that the next start after a crash does not read every file again (a few are cheap).
      if (records.#filesRead >= MIN_CHECKPOINT_EVERY) records.#journaling.checkpointSoon();
    }
    records.#heap.check(table.size);
    return records;
  }

  /** Status files read at start. */
  get filesRead(): number {
    return this.#filesRead;
  }

  /** "snapshot", or why the files were scanned instead: "missing", "version", "corrupt", "stale". */
  get loadedFrom(): string {
    return this.#loadedFrom;
  }

  /** Resolves once the files of the puts acknowledged so far are written, or have failed. */
  filed(): Promise<void> {
    return this.#filer.settled();
  }

  /** The rows: read them synchronously (a row may hold another status after an await). */
  get table(): StatusTable {
    return this.#table;
  }

  /** The status's summary (allocates one: for tests and single statuses). */
  summary(id: string): StatusSummary | undefined {
    const row = this.#table.rowOf(id);
    return row < 0 ? undefined : this.#table.summary(row);
  }

  /** Every summary, in row order (made one by one). */
  *summaries(): Generator<StatusSummary> {
    for (const row of this.#table.rows()) yield this.#table.summary(row);
  }

  /** The status (deeply frozen); a body read back after eviction may be a new object. */
  get(id: string): Promise<Status | undefined> | Status | undefined {
    // Answers from memory synchronously: a timeline page of cached bodies costs no promise each.
    if (this.#table.rowOf(id) < 0) return undefined;
    const cached = this.#bodies.get(id) ?? this.#filer.body(id);
    if (cached !== undefined) return cached;
    let reading = this.#reading.get(id);
    if (reading === undefined) {
      reading = this.#readBody(id).finally(() => this.#reading.delete(id));
      this.#reading.set(id, reading);
    }
    return reading;
  }

  /** Creates or replaces the status; resolves once durable and visible. */
  put(status: Status): Promise<void> {
    return this.#track(status.id, () => this.#put(status));
  }

  /**
   * Removes the status's file for good (the retention sweep); resolves once durable and gone
   * from memory; false when there was none. Journaled like a put, so a start after a crash reads
   * the name again, finds no file and leaves the status out: the snapshot never brings it back.
   */
  remove(id: string): Promise<boolean> {
    return this.#track(id, () => this.#remove(id));
  }

  #track<T>(id: string, write: () => Promise<T>): Promise<T> {
    if (this.#closed) {
      return Promise.reject(new Error(`Storage is closed; cannot write status ${id}`));
    }
    // One write of a status at a time, in call order: its line, then its file handed to the
    // filer (or, for a removal, its file removed).
    const previous = this.#writing.get(id);
    const writing = previous === undefined ? write() : previous.then(write);
    const done = writing.then(
      () => {},
      () => {},
    );
    this.#writing.set(id, done);
    void done.then(() => {
      if (this.#writing.get(id) === done) this.#writing.delete(id);
    });
    // Tracked so close() can wait until every write in flight is durable and shows in memory.
    const settled = writing.then(
      () => {},
      () => {},
    );
    this.#putting.add(settled);
    void settled.then(() => this.#putting.delete(settled));
    return writing;
  }

  async #put(status: Status): Promise<void> {
    // Keep exactly what a reload will read back, detached from the caller's object.
    const json = `${JSON.stringify(status, null, 2)}\n`;
    const value = deepFreeze(JSON.parse(json) as Status);
    const file = safeFileOf(spec, value);
    const current = this.#table.rowOf(value.id);
    if (current >= 0 && this.#table.accountOf(current) !== value.accountId) {
      // Moving the file would leave two files for one id behind a crash.
      throw new Error(`Record ${value.id} of statuses cannot move to ${file}`);
    }
    // The record of the event this write announces (JobStore.putAround, write-gate.ts): its
    // line must be durable before ours, which a start would replay into the file.
    const gate = this.#writer.gates.current();
    // Only a slow or failing disk leaves no room for another unfiled status.
    const room = this.#filer.room();
    if (room !== undefined) await room;
    if (gate !== undefined) await gate;
    // The journal's line with the bytes is the durable step; the file is written after the
    // answer (ADR 0084), its body pinned in memory until then.
    await this.#journaling.change(
      value.id,
      file,
      json,
      async () => {},
      () => {
        this.#bodies.set(value.id, value);
        this.#filer.file({ id: value.id, file, json, body: value });
        this.#set(this.#table.rowOf(value.id), summarize(value));
      },
    );
  }

  async #remove(id: string): Promise<boolean> {
    const current = this.#table.rowOf(id);
    if (current < 0) return false;
    const file = `${this.#table.accountOf(current)}/${id}.json`;
    // As for a put: the record of the event this removal announces (a Delete to send) is durable
    // before the line that a start would replay into the file's removal.
    const gate = this.#writer.gates.current();
    if (gate !== undefined) await gate;
    await this.#journaling.change(
      id,
      file,
      null,
      async () => {
        // Not written after its removal: a file still to write leaves the filer's queue.
        const unfiled = await this.#filer.hold(id);
        try {
          await this.#writer.remove(join(this.#dir, file));
        } catch (error) {
          if (unfiled !== undefined && this.#filer.body(id) === unfiled.body) {
            this.#filer.file(unfiled);
          }
          throw error;
        }
      },
      () => {
        this.#filer.forget(id);
        this.#bodies.delete(id);
        const row = this.#table.rowOf(id);
        if (row >= 0) this.#drop(row);
      },
    );
    return true;
  }

  /**
   * Refuses new writes, waits for those in flight and closes the journal's file. Needed before
   * the writer closes: a put may still be removing the snapshot, and must reach the writer
   * before it refuses writes.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const stopped = this.#journaling.stop();
    await Promise.allSettled([...this.#putting]);
    await stopped;
    // Files still unfiled after this (a failing disk) are carried by the snapshot's journal.
    await this.#filer.close();
    // Nothing appends to the journal from here on (a snapshot starts one of its own).
    await this.#journaling.closeJournal();
  }

  /**
   * Writes the snapshot for the next start: call after close() and after the writer has made
   * every write durable. Failed writes stay named in the new journal (their state is unknown).
   */
  async checkpoint(): Promise<void> {
    if (!this.#closed) throw new Error("checkpoint() needs the status writes closed first");
    await this.#journaling.closeWithSnapshot();
  }

  /** Writes the summary into the status's row (-1: a new one) and tells the listener. */
  #set(row: number, next: StatusSummary): void {
    const table = this.#table;
    if (row >= 0) this.#listener.leave(row);
    this.#listener.enter(table.write(row, next));
    if (row < 0) this.#heap.check(table.size);
  }

  /** Takes the row out of the indexes and the table. */
  #drop(row: number): void {
    this.#listener.leave(row);
    this.#table.remove(row);
  }

  /**
   * Reads again the files the journals name (they may differ from the snapshot). A damaged one
   * is moved aside and its status left out, as in a full scan (quarantine.ts).
   */
  async #reread(changed: ReadonlySet<string>): Promise<void> {
    const table = this.#table;
    // The status's row in force now (another name of the same id may have changed it meanwhile).
    const current = (id: string) => {
      const row = table.rowOf(id);
      return row < 0 ? undefined : { row, id, accountId: table.accountOf(row) };
    };
    await forEachLimit([...changed], 64, async (name) => {
      const file = `${name}.json`;
      const path = join(this.#dir, file);
      this.#filesRead++;
      const id = name.slice(name.indexOf("/") + 1);
      const dropPrevious = () => {
        const previous = current(id);
        if (previous !== undefined && `${previous.accountId}/${id}` === name) {
          this.#drop(previous.row);
        }
      };
      try {
        const bytes = await this.#readAtStart(file).catch(ignoreCode("ENOENT"));
        // Journaled but never written (a crash came first), or removed behind our back.
        if (bytes === undefined) return dropPrevious();
        // The same id in another account's folder is a second file for one status.
        const clash = (record: Status) => {
          const previous = current(record.id);
          return previous !== undefined && previous.accountId !== record.accountId
            ? previous
            : undefined;
        };
        this.#load(path, file, bytes, clash, (summary) =>
          this.#set(table.rowOf(summary.id), summary),
        );
      } catch (error) {
        if (!isDamage(error)) throw error;
        dropPrevious();
        await reportDamage(this.#writer, this.#root, path, error);
      }
    });
  }

  /**
   * Takes one status file read at start into memory through `keep`. A file that is no usable
   * status, or a second file for a status already loaded (`clash`), throws DamagedRecordError
   * for the caller to set aside.
   */
  #load(
    path: string,
    file: string,
    bytes: Buffer,
    clash: (record: Status) => { id: string; accountId: string } | undefined,
    keep: (summary: StatusSummary) => void,
  ): void {
    const record = parseRecordFile(spec, path, file, bytes);
    const other = clash(record);
    if (other !== undefined) {
      const first = join(this.#dir, other.accountId, `${other.id}.json`);
      throw new DamagedRecordError(path, `holds the same status as ${first}`);
    }
    let summary: StatusSummary;
    try {
      summary = summarize(record);
      keep(summary);
    } catch (error) {
      throw new DamagedRecordError(path, `not a status (${error})`, { cause: error });
    }
    noteLoaded(this.#writer, spec.folder, file, record);
  }

  /** A status file read at start (undefined: none), as an inspection's overlay has it if it does. */
  async #readAtStart(file: string): Promise<Buffer | undefined> {
    const journaled = this.#overlay.get(file);
    if (journaled !== undefined) return journaled === null ? undefined : Buffer.from(journaled);
    return readFile(join(this.#dir, file));
  }

  async #readBody(id: string): Promise<Status | undefined> {
    const table = this.#table;
    for (;;) {
      const row = table.rowOf(id);
      // Removed (the retention sweep) while being read.
      if (row < 0) return undefined;
      const stamp = table.stampOf(row);
      const pinned = this.#filer.body(id);
      if (pinned !== undefined) return pinned;
      const file = `${table.accountOf(row)}/${id}.json`;
      const path = join(this.#dir, file);
      // The same row, not written since: what was read is the version in force.
      const unchanged = () => table.rowOf(id) === row && table.stampOf(row) === stamp;
      let record: Status;
      try {
        record = parseRecordFile(spec, path, file, await readFile(path));
      } catch (error) {
        const gone = (error as NodeJS.ErrnoException).code === "ENOENT";
        // Only the file of the summary still in force, and with no write of it under way (its
        // rename could land between our read and a move aside, which would take the good file).
        if ((!gone && !isDamage(error)) || this.#journaling.busy(id)) throw error;
        if (!unchanged()) continue;
        await this.#dropDamaged(row, path, error, gone);
        return undefined;
      }
      // A put that landed during the read wrote the row again (and cached its body): what was
      // read may be the old version, so it must not be cached over the new one.
      if (unchanged()) {
        const body = deepFreeze(record);
        this.#bodies.set(id, body);
        return body;
      }
      const cached = this.#bodies.get(id);
      if (cached !== undefined) return cached;
    }
  }

  /**
   * A status file found damaged (or gone) after start, e.g. truncated in place while the
   * snapshot still listed it: the status leaves memory, so timelines skip it and its URL
   * answers 404, and the file is moved aside (quarantine.ts).
   */
  async #dropDamaged(row: number, path: string, error: unknown, gone: boolean): Promise<void> {
    this.#drop(row);
    this.#writer.noteVisibleChange("statuses");
    if (gone) {
      logger.error("Status file {path} has vanished; the status is left out", { path });
      return;
    }
    await reportDamage(this.#writer, this.#root, path, error);
  }

  /**
   * Reads every status file (no snapshot to trust); bodies are not kept. A damaged file is
   * moved aside and its status left out (quarantine.ts). The files come in directory order;
   * the summaries are written to the table in id order once all are read, so every list is
   * built already sorted and the snapshots that follow find them in order too: otherwise the
   * first read of the public timeline and every snapshot would sort up to a million rows on
   * the event loop.
   */
  async #scan(): Promise<void> {
    const listed = await listRecordFiles(this.#dir, spec.depth);
    // An inspection's overlay: files a start would remove or write again first.
    const overlay = this.#overlay;
    const known = new Set(listed);
    const files = [
      ...listed.filter((file) => overlay.get(file) !== null),
      ...[...overlay].flatMap(([file, bytes]) =>
        bytes !== null && !known.has(file) ? [file] : [],
      ),
    ];
    const read = new Map<string, StatusSummary>();
    const keep = (summary: StatusSummary) => {
      // In the map at once: it finds a second file for the same id (the clash check).
      read.set(summary.id, summary);
      this.#heap.check(read.size);
    };
    await forEachLimit(files, 64, async (file) => {
      const path = join(this.#dir, file);
      this.#filesRead++;
      try {
        const bytes = await this.#readAtStart(file);
        if (bytes !== undefined)
          this.#load(path, file, bytes, (record) => read.get(record.id), keep);
      } catch (error) {
        if (!isDamage(error)) throw error;
        await reportDamage(this.#writer, this.#root, path, error);
      }
    });
    const ordered = await sortYielding([...read.values()], (x, y) => compareIds(x.id, y.id));
    read.clear();
    for (const summary of ordered) this.#set(-1, summary);
  }
}
