// Writes status files after their writes are acknowledged (ADR 0084). A status write is durable
// once its status journal line, which carries the file's bytes, is fdatasynced (ADR 0065); the
// file itself only has to exist before a snapshot lets that journal go, and until then a start
// restores it from the line. So a put hands its file here and answers: the body stays pinned in
// memory (readers find it here) until a thread of its own has written the file (temporary file,
// rename; status-filer-thread.ts), in batches of whatever was handed over meanwhile. A snapshot
// writes the lines of the files still unfiled into its new journal; a failed file is tried
// again, its line and body kept.

import { getCompileCacheDir } from "node:module";
import { dirname, join } from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { getLogger } from "@logtape/logtape";
import { environmentWith } from "../../config/thread-environment.ts";
import { cannotStore } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import { type DurableWriter, TEMP_SUFFIX } from "./durable-writer.ts";
import type { FilingReply, FilingRequest } from "./status-filer-thread.ts";
import { journalLine } from "./status-journal.ts";

const logger = getLogger(["wren", "storage"]);

/**
 * Statuses waiting for their files before a put waits for room: their bodies (~1–3 kB each)
 * are held in memory meanwhile. The thread writes several thousand files a second; only a slow
 * or failing disk lets this many pile up.
 */
export const MAX_UNFILED = 10_000;
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/** A status whose file is not written yet: its path under `statuses/`, bytes and body. */
export interface Unfiled {
  id: string;
  file: string;
  json: string;
  body: Status;
}

interface Writing {
  ids: ReadonlySet<string>;
  done: Promise<void>;
}

export class StatusFiler {
  readonly #dir: string;
  readonly #writer: DurableWriter;
  /** The latest version of each status whose file is not written yet, by id. */
  readonly #unfiled = new Map<string, Unfiled>();
  /** Waiting for the thread, by id (the latest version only). */
  #queue = new Map<string, Unfiled>();
  /** The batch the thread is writing. */
  #writing: Writing | undefined;
  #scheduled = false;
  #retryDelay = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  /** Why the last batch failed, while the disk refuses files. */
  #failure: unknown;
  #roomWaiters: (() => void)[] = [];
  #tempCounter = 0;
  #closed = false;
  /** The thread is gone for good (after close). */
  #stopped = false;
  readonly #maxUnfiled: number;

  constructor(dir: string, writer: DurableWriter, options: { maxUnfiled?: number } = {}) {
    this.#dir = dir;
    this.#writer = writer;
    this.#maxUnfiled = options.maxUnfiled ?? MAX_UNFILED;
  }

  /** Statuses whose files are not written yet. */
  get size(): number {
    return this.#unfiled.size;
  }

  /** The body of a status whose file is not written yet. */
  body(id: string): Status | undefined {
    return this.#unfiled.get(id)?.body;
  }

  /** The bytes a status's file will hold, while it is not written yet. */
  bytesOf(id: string): string | undefined {
    return this.#unfiled.get(id)?.json;
  }

  /** The journal lines of every status whose file is not written yet (a snapshot carries them). */
  lines(): string[] {
    return [...this.#unfiled.values()].map((entry) =>
      journalLine(entry.file.slice(0, -".json".length), entry.json),
    );
  }

  /**
   * Undefined while there is room for another unfiled status; otherwise a promise of room, or
   * the disk's refusal while the files cannot be written (a put is then refused before its line).
   */
  room(): Promise<void> | undefined {
    if (this.#unfiled.size < this.#maxUnfiled) return undefined;
    if (this.#failure !== undefined) {
      return Promise.reject(cannotStore(this.#failure, this.#dir) ?? this.#failure);
    }
    return new Promise<void>((resolve) => this.#roomWaiters.push(resolve)).then(() => this.room());
  }

  /** Hands over the status's file (its line is durable); pinned until written. */
  file(entry: Unfiled): void {
    this.#unfiled.set(entry.id, entry);
    this.#queue.set(entry.id, entry);
    this.#kick();
  }

  /**
   * Before the status's file is removed: takes it off the queue and waits for a batch that is
   * writing it. Returns the version still unfiled, which stays pinned until forget().
   */
  async hold(id: string): Promise<Unfiled | undefined> {
    this.#queue.delete(id);
    while (this.#writing?.ids.has(id)) {
      await this.#writing.done;
      // A failed batch queues its files again.
      this.#queue.delete(id);
    }
    return this.#unfiled.get(id);
  }

  /** The status's file is removed: its body is no longer pinned. */
  forget(id: string): void {
    this.#queue.delete(id);
    this.#unfiled.delete(id);
    this.#wakeRoomWaiters();
  }

  /**
   * Writes what is queued (one last try for files that failed); nothing is written after. Files
   * that still fail stay unfiled: their lines and bodies remain for the snapshot's journal.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    await this.#writing?.done;
    if (this.#queue.size > 0) await this.#send();
    this.#stopped = true;
  }

  /**
   * Resolves once every file handed over so far is written, or has failed once more (tried
   * now, not at the next retry).
   */
  async settled(): Promise<void> {
    await this.#writing?.done;
    await this.#send();
  }

  #kick(): void {
    if (this.#scheduled || this.#writing || this.#retryTimer || this.#closed) return;
    this.#scheduled = true;
    // One turn later: the puts acknowledged by one journal batch go in one message.
    setImmediate(() => {
      this.#scheduled = false;
      if (!this.#writing && !this.#retryTimer) void this.#send();
    });
  }

  #send(): Promise<void> {
    if (this.#writing) return this.#writing.done;
    if (this.#queue.size === 0 || this.#stopped) return Promise.resolve();
    const entries = [...this.#queue.values()];
    this.#queue = new Map();
    const done = this.#write(entries).finally(() => {
      this.#writing = undefined;
      if (this.#queue.size > 0) this.#kick();
    });
    this.#writing = { ids: new Set(entries.map((entry) => entry.id)), done };
    return done;
  }

  async #write(entries: Unfiled[]): Promise<void> {
    const failures: FilingReply["failures"] = entries.map(() => null);
    const sent: number[] = [];
    const files: FilingRequest["files"][number][] = [];
    entries.forEach((entry, i) => {
      const path = join(this.#dir, entry.file);
      try {
        // Tests' simulated full disk (write-faults.ts) strikes here as on the thread's write.
        this.#writer.checkFault(path);
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException;
        failures[i] = { code, message };
        return;
      }
      sent.push(i);
      const temp = join(
        this.#dir,
        `.${entry.id}.json.${process.pid}-f${++this.#tempCounter}${TEMP_SUFFIX}`,
      );
      files.push({ file: entry.file, json: entry.json, temp });
    });
    if (files.length > 0) {
      let reply: Omit<FilingReply, "id">;
      try {
        reply = await filingThread.ask({ dir: this.#dir, files });
      } catch (error) {
        reply = {
          failures: files.map(() => ({ code: undefined, message: String(error) })),
          madeFolders: [],
        };
      }
      reply.failures.forEach((failure, k) => {
        failures[sent[k] as number] = failure;
      });
      for (const folder of reply.madeFolders) this.#writer.noteDeferredDir(dirname(folder));
    }
    let failed: { code: string | undefined; message: string } | undefined;
    entries.forEach((entry, i) => {
      const failure = failures[i];
      const latest = this.#unfiled.get(entry.id) === entry;
      if (failure === null || failure === undefined) {
        this.#writer.noteDeferred(join(this.#dir, entry.file));
        if (latest) this.#unfiled.delete(entry.id);
        return;
      }
      failed ??= failure;
      if (latest && !this.#queue.has(entry.id)) this.#queue.set(entry.id, entry);
    });
    if (failed === undefined) {
      if (this.#failure !== undefined) logger.info("Status files are written again");
      this.#failure = undefined;
      this.#retryDelay = 0;
    } else {
      if (this.#failure === undefined) {
        logger.error(
          "Cannot write status files ({error}); their statuses are kept in the status journal " +
            "and in memory, and the files are tried again",
          { error: failed.message },
        );
      }
      this.#failure = Object.assign(new Error(failed.message), { code: failed.code });
      this.#retryDelay = Math.min(Math.max(FIRST_RETRY_MS, this.#retryDelay * 2), LAST_RETRY_MS);
      if (!this.#closed) {
        this.#retryTimer = setTimeout(() => {
          this.#retryTimer = undefined;
          this.#kick();
        }, this.#retryDelay);
        this.#retryTimer.unref();
      }
    }
    this.#wakeRoomWaiters();
  }

  #wakeRoomWaiters(): void {
    if (this.#roomWaiters.length === 0) return;
    if (this.#unfiled.size >= this.#maxUnfiled && this.#failure === undefined) return;
    const waiters = this.#roomWaiters;
    this.#roomWaiters = [];
    for (const wake of waiters) wake();
  }
}

/**
 * The thread every storage of the process hands its batches to: one per process, started at the
 * first status write and kept (tests open hundreds of storages in one process, and a thread
 * costs 100–200 ms of CPU to start). It holds the process open only while a batch is out.
 */
class FilingThread {
  #thread: Worker | undefined;
  readonly #waiting = new Map<number, PromiseWithResolvers<FilingReply>>();
  #lastId = 0;

  ask(request: Omit<FilingRequest, "id">): Promise<FilingReply> {
    const thread = this.#thread ?? this.#start();
    const id = ++this.#lastId;
    const reply = Promise.withResolvers<FilingReply>();
    this.#waiting.set(id, reply);
    thread.ref();
    thread.postMessage({ ...request, id });
    return reply.promise.finally(() => {
      this.#waiting.delete(id);
      if (this.#waiting.size === 0) this.#thread?.unref();
    });
  }

  #start(): Worker {
    const thread = new Worker(
      new URL("./status-filer-thread.ts", import.meta.url),
      filingThreadOptions(process.execArgv, getCompileCacheDir()),
    );
    thread.unref();
    thread.on("message", (reply: FilingReply) => this.#waiting.get(reply.id)?.resolve(reply));
    const lost = (error: unknown) => {
      if (this.#thread !== thread) return;
      this.#thread = undefined;
      for (const waiting of this.#waiting.values()) waiting.reject(error);
    };
    thread.on("error", lost);
    thread.on("exit", (code) => lost(new Error(`The status filing thread exited (${code})`)));
    this.#thread = thread;
    return thread;
  }
}

/**
 * How the filing thread starts. It takes the process's Node flags, except in a process started
 * as a string program (`--input-type=module -e`, as tests start children): Node refuses a module
 * file under that flag, so such a thread starts with none. A compile cache enabled by a call
 * (cli/main.ts) is the calling thread's alone; through the environment the thread uses it too,
 * and a start after the first skips stripping its TypeScript again (about 70 ms of CPU).
 */
export function filingThreadOptions(
  execArgv: readonly string[],
  compileCacheDir: string | undefined,
): WorkerOptions {
  const stringProgram = execArgv.some((flag) => flag.startsWith("--input-type"));
  return {
    ...(stringProgram && { execArgv: [] }),
    ...(compileCacheDir !== undefined && {
      env: environmentWith({ NODE_COMPILE_CACHE: compileCacheDir }),
    }),
  };
}

const filingThread = new FilingThread();
