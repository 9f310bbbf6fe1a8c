// The statuses of the json-file backend: one file per status (`statuses/<account_id>/<id>.json`)
// as ever, but memory holds only a compact summary per status (status-summary.ts) plus a bounded
// cache of recently used bodies; other bodies are read from their files on demand. At start the
// summaries come from the snapshot of the last clean shutdown when it is usable
// (status-snapshot.ts), otherwise from reading every file.

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import { LruCache } from "../../domain/lru-cache.ts";
import type { Status } from "../../domain/status.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { forEachLimit } from "./parallel.ts";
import { DamagedRecordError, isDamage, noteLoaded, reportDamage } from "./quarantine.ts";
import {
  type CollectionSpec,
  deepFreeze,
  listRecordFiles,
  parseRecordFile,
  safeFileOf,
} from "./record-collection.ts";
import { logSnapshotUnused } from "./snapshot-unused-log.ts";
import {
  readSnapshot,
  removeSnapshot,
  SNAPSHOT_FILE,
  type SnapshotResult,
  writeSnapshot,
} from "./status-snapshot.ts";
import { type StatusSummary, StringPool, summarize } from "./status-summary.ts";
import { WriteOrder } from "./write-order.ts";

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
  /** Called on every change of a status's summary, including once per status while loading. */
  onChange(previous: StatusSummary | undefined, next: StatusSummary | undefined): void;
}

/** Enough for the recent statuses that timelines read over and over (~1–3 kB each). */
export const DEFAULT_BODY_CACHE = 20_000;

export class StatusRecords {
  readonly #root: string;
  readonly #dir: string;
  readonly #writer: DurableWriter;
  readonly #options: StatusRecordsOptions;
  readonly #summaries = new Map<string, StatusSummary>();
  readonly #bodies: LruCache<string, Status>;
  /** One read per body at a time: a page asked for by many clients at once reads it once. */
  readonly #reading = new Map<string, Promise<Status | undefined>>();
  readonly #order = new WriteOrder();
  /** Where the summaries came from at start (or why the snapshot was not used). */
  #loadedFrom: "snapshot" | Exclude<SnapshotResult, { ok: true }>["reason"] = "missing";
  /** Resolves once the snapshot is durably gone; set by the first write of the run. */
  #snapshotRemoved: Promise<void> | undefined;
  /** A failed write leaves the file's state unknown: then no snapshot may describe it. */
  #writeFailed = false;
  readonly #putting = new Set<Promise<void>>();
  #closed = false;

  private constructor(root: string, writer: DurableWriter, options: StatusRecordsOptions) {
    this.#root = root;
    this.#dir = join(root, spec.folder);
    this.#writer = writer;
    this.#options = options;
    this.#bodies = new LruCache(options.cacheSize ?? DEFAULT_BODY_CACHE);
  }

  static async open(
    root: string,
    writer: DurableWriter,
    options: StatusRecordsOptions,
  ): Promise<StatusRecords> {
    const { snapshot: given, ...kept } = options;
    const records = new StatusRecords(root, writer, kept);
    const snapshot = given ?? (await readSnapshot(root));
    if (snapshot.ok) {
      records.#loadedFrom = "snapshot";
      for (const summary of snapshot.summaries) records.#add(summary, undefined);
    } else {
      records.#loadedFrom = snapshot.reason;
      await records.#scan();
      logSnapshotUnused(join(root, SNAPSHOT_FILE), snapshot.reason, records.#summaries.size);
    }
    return records;
  }

  /** "snapshot", or why the files were scanned instead: "missing", "version", "corrupt", "stale". */
  get loadedFrom(): string {
    return this.#loadedFrom;
  }

  summary(id: string): StatusSummary | undefined {
    return this.#summaries.get(id);
  }

  summaries(): IterableIterator<StatusSummary> {
    return this.#summaries.values();
  }

  /** The status (deeply frozen); a body read back after eviction may be a new object. */
  get(id: string): Promise<Status | undefined> | Status | undefined {
    // Answers from memory synchronously: a timeline page of cached bodies costs no promise each.
    if (!this.#summaries.has(id)) return undefined;
    const cached = this.#bodies.get(id);
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
    if (this.#closed) {
      return Promise.reject(new Error(`Storage is closed; cannot write status ${status.id}`));
    }
    const putting = this.#put(status);
    // Tracked so close() can wait until every write in flight is durable and shows in memory.
    this.#putting.add(putting);
    const forget = () => this.#putting.delete(putting);
    putting.then(forget, forget);
    return putting;
  }

  async #put(status: Status): Promise<void> {
    // Keep exactly what a reload will read back, detached from the caller's object.
    const json = `${JSON.stringify(status, null, 2)}\n`;
    const value = deepFreeze(JSON.parse(json) as Status);
    const file = safeFileOf(spec, value);
    const current = this.#summaries.get(value.id);
    if (current !== undefined && current.accountId !== value.accountId) {
      // Moving the file would leave two files for one id behind a crash.
      throw new Error(`Record ${value.id} of statuses cannot move to ${file}`);
    }
    const sequence = this.#order.begin(value.id);
    try {
      this.#snapshotRemoved ??= removeSnapshot(this.#root);
      await this.#snapshotRemoved;
      await this.#writer.write(join(this.#dir, file), json);
    } catch (error) {
      this.#writeFailed = true;
      this.#order.end(value.id);
      throw error;
    }
    if (this.#order.mayApply(value.id, sequence)) {
      this.#writer.noteVisibleChange();
      this.#bodies.set(value.id, value);
      this.#add(summarize(value), this.#summaries.get(value.id));
    }
    this.#order.end(value.id);
  }

  /**
   * Refuses new writes and waits for those in flight. Needed before the writer closes: a put
   * may still be removing the snapshot, and must reach the writer before it refuses writes.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#putting]);
  }

  /**
   * Writes the snapshot for the next start: call after close() and after the writer has made
   * every write durable. Skipped after a failed write (the files' state is then unknown).
   */
  async checkpoint(): Promise<void> {
    if (!this.#closed) throw new Error("checkpoint() needs the status writes closed first");
    if (this.#writeFailed) return;
    await writeSnapshot(this.#root, this.#summaries.values());
  }

  #add(next: StatusSummary, previous: StatusSummary | undefined): void {
    this.#summaries.set(next.id, next);
    this.#options.onChange(previous, next);
  }

  async #readBody(id: string): Promise<Status | undefined> {
    for (;;) {
      const summary = this.#summaries.get(id) as StatusSummary;
      const file = `${summary.accountId}/${id}.json`;
      const path = join(this.#dir, file);
      let record: Status;
      try {
        record = parseRecordFile(spec, path, file, await readFile(path));
      } catch (error) {
        const gone = (error as NodeJS.ErrnoException).code === "ENOENT";
        // Only the file of the summary still in force, and with no write of it under way (its
        // rename could land between our read and a move aside, which would take the good file).
        if ((!gone && !isDamage(error)) || this.#order.busy(id)) throw error;
        if (this.#summaries.get(id) !== summary) continue;
        await this.#dropDamaged(summary, path, error, gone);
        return undefined;
      }
      // A put that landed during the read made a new summary (and cached its body): what was
      // read may be the old version, so it must not be cached over the new one.
      if (this.#summaries.get(id) === summary) {
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
  async #dropDamaged(
    summary: StatusSummary,
    path: string,
    error: unknown,
    gone: boolean,
  ): Promise<void> {
    this.#summaries.delete(summary.id);
    this.#writer.noteVisibleChange();
    this.#options.onChange(summary, undefined);
    if (gone) {
      logger.error("Status file {path} has vanished; the status is left out", { path });
      return;
    }
    await reportDamage(this.#writer, this.#root, path, error);
  }

  /**
   * Reads every status file (no snapshot to trust); bodies are not kept. A damaged file is
   * moved aside and its status left out (quarantine.ts).
   */
  async #scan(): Promise<void> {
    const files = await listRecordFiles(this.#dir, spec.depth);
    const pool = new StringPool();
    await forEachLimit(files, 64, async (file) => {
      const path = join(this.#dir, file);
      try {
        const record = parseRecordFile(spec, path, file, await readFile(path));
        const other = this.#summaries.get(record.id);
        if (other !== undefined) {
          const first = join(this.#dir, other.accountId, `${other.id}.json`);
          throw new DamagedRecordError(path, `holds the same status as ${first}`);
        }
        let summary: StatusSummary;
        try {
          summary = summarize(record, pool);
        } catch (error) {
          throw new DamagedRecordError(path, `not a status (${error})`, { cause: error });
        }
        this.#add(summary, undefined);
        noteLoaded(this.#writer, spec.folder, file, record);
      } catch (error) {
        if (!isDamage(error)) throw error;
        await reportDamage(this.#writer, this.#root, path, error);
      }
    });
  }
}
