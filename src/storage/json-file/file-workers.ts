// Worker threads for the json-file backend's durable file work (ADR 0058). Creating a status
// made the main thread issue five thread-pool requests for its file (open, write, fsync, close,
// rename), each a wake-up of a pool thread, a completion callback and a promise, plus a write and
// an fdatasync per journal batch: about a fifth of the main thread's time per created status, on
// the thread that limits the creation rate. Here a batch of files (or a journal's append) is one
// message to a worker thread, which makes the calls synchronously (file-worker-thread.ts) and
// answers once; several threads share a batch, so as many fsyncs run at once as on libuv's pool.
//
// The threads are the process's, shared by every data directory it opens, started at their first
// request and kept: a thread holds the process open only while a request of it is unanswered.
// A thread that dies (a bug, a terminate) fails the requests it held, each as an error of its
// files (their state is unknown, as after an EIO), and the next request starts a new one.

import { Worker } from "node:worker_threads";
import type { FileErrorInfo, FileReply, FileRequest, FileWriteOp } from "./file-worker-messages.ts";

/** As many threads as libuv's default pool: as many fsyncs in flight as before. */
export const FILE_WORKERS = 4;

const SCRIPT = new URL("./file-worker-thread.ts", import.meta.url);

/** Requests answered by the worker threads so far (tests: the work went there). */
export const fileWorkerStats = { requests: 0 };

type Unsent = FileRequest extends infer R ? (R extends FileRequest ? Omit<R, "id"> : never) : never;

/** Options of a string program, with the argument that follows them (the code, the type). */
const STRING_PROGRAM = new Set(["-e", "--eval", "-p", "--print", "--input-type"]);

/**
 * The Node options for a thread: the process's (the default) less those of a program given as a
 * string (`node --input-type=module -e …`, as tests start a writer to kill), which a thread
 * started from a file refuses, failing every write. Undefined (inherit) when there are none.
 */
function threadExecArgv(): string[] | undefined {
  const args = process.execArgv;
  const isStringProgram = (arg: string) =>
    STRING_PROGRAM.has(arg) || [...STRING_PROGRAM].some((name) => arg.startsWith(`${name}=`));
  if (!args.some(isStringProgram)) return undefined;
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (STRING_PROGRAM.has(arg)) i++;
    else if (!isStringProgram(arg)) kept.push(arg);
  }
  return kept;
}

/** An errno error again, with the fields `cannotStore` and the logs read. */
function errorOf(info: FileErrorInfo): Error {
  const { message, ...fields } = info;
  return Object.assign(new Error(message), fields);
}

class FileWorker {
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, { size: number; resolve(errors: (Error | null)[]): void }>();
  #nextId = 0;

  /** Requests sent and not yet answered. */
  get busy(): number {
    return this.#waiting.size;
  }

  /** Resolves with one entry per op (`size` of them): null, or that op's error. Never rejects. */
  send(request: Unsent, size: number): Promise<(Error | null)[]> {
    let worker: Worker;
    try {
      worker = this.#worker ?? this.#start();
    } catch (error) {
      // A thread that cannot start (options it refuses, no memory): every op fails with it.
      return Promise.resolve(Array(size).fill(error));
    }
    const id = ++this.#nextId;
    const { promise, resolve } = Promise.withResolvers<(Error | null)[]>();
    // Only an unanswered request keeps the process alive, as a pending file call did.
    if (this.#waiting.size === 0) worker.ref();
    this.#waiting.set(id, { size, resolve });
    worker.postMessage({ ...request, id });
    return promise;
  }

  #start(): Worker {
    const execArgv = threadExecArgv();
    const worker = new Worker(SCRIPT, execArgv ? { execArgv } : {});
    worker.unref();
    worker.on("message", (reply: FileReply) => {
      const waiter = this.#waiting.get(reply.id);
      if (!waiter) return;
      this.#waiting.delete(reply.id);
      if (this.#waiting.size === 0) worker.unref();
      fileWorkerStats.requests++;
      waiter.resolve(reply.errors.map((info) => (info === null ? null : errorOf(info))));
    });
    const fail = (error: Error) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      for (const waiter of this.#waiting.values()) waiter.resolve(Array(waiter.size).fill(error));
      this.#waiting.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`A file worker thread exited (code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  /** Tests only: ends the thread as a crash of it would. */
  async terminate(): Promise<void> {
    await this.#worker?.terminate();
  }
}

const workers = Array.from({ length: FILE_WORKERS }, () => new FileWorker());

/** The threads, least busy first (the first ones when none is busy: fewer threads started). */
const byLoad = () => [...workers].sort((a, b) => a.busy - b.busy);

/**
 * Replaces each op's file durably (temporary file written, fsynced, renamed over the path; the
 * temporary file removed if any step fails). Resolves with one entry per op, in order: null, or
 * why that file was not replaced. Never rejects. The directories are not fsynced here.
 */
export async function replaceFiles(ops: readonly FileWriteOp[]): Promise<(Error | null)[]> {
  if (ops.length === 0) return [];
  const count = Math.min(FILE_WORKERS, ops.length);
  const chosen = byLoad().slice(0, count);
  const shares = chosen.map((_, k) => ops.filter((_, i) => i % count === k));
  const replies = await Promise.all(
    chosen.map((worker, k) => {
      const share = shares[k] as FileWriteOp[];
      return worker.send({ kind: "replace", ops: share }, share.length);
    }),
  );
  return ops.map((op, i) => {
    const result = replies[i % count]?.[Math.floor(i / count)];
    return result === undefined ? new Error(`No answer for ${op.path}`) : result;
  });
}

/** Appends `text` to the file open for appending as `fd`; with `sync`, fdatasyncs it too. */
export async function appendToFile(fd: number, text: string, sync: boolean): Promise<void> {
  const [error] = await (byLoad()[0] as FileWorker).send({ kind: "append", fd, text, sync }, 1);
  if (error) throw error;
}

/** Tests only: ends every file worker thread as a crash would (the next request starts anew). */
export async function terminateFileWorkers(): Promise<void> {
  await Promise.all(workers.map((worker) => worker.terminate()));
}
