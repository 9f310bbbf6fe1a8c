// The code of one file worker thread (file-workers.ts, ADR 0058): the durable writer's file
// writes and the journals' appends, made with synchronous calls. A thread blocked in fsync costs
// no other thread anything, and the main thread, instead of five thread-pool requests per file
// (each a wake-up of a pool thread, a completion callback and a promise), sends one message per
// batch. Every request gets one reply, whatever happens: an error of one file is that file's.
// Imports nothing but Node's own modules and constants: each thread loads this file alone.

import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { parentPort } from "node:worker_threads";
import { PRIVATE_FILE_MODE } from "../../private-modes.ts";
import type { FileErrorInfo, FileReply, FileRequest, FileWriteOp } from "./file-worker-messages.ts";

/** Files of one share open at once, at most (each of the pool's threads). */
const OPEN_AT_ONCE = 32;

/** Writes all of `data` at the descriptor's position (a short write continues where it ended). */
function writeAll(fd: number, data: string): void {
  const bytes = Buffer.from(data, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** What the main thread needs of an errno error: the storage maps `code` (a full disk: 507). */
function infoOf(error: unknown): FileErrorInfo {
  const { message, code, errno, syscall, path } = error as NodeJS.ErrnoException;
  return {
    message: String(message ?? error),
    ...(code === undefined ? {} : { code }),
    ...(errno === undefined ? {} : { errno }),
    ...(syscall === undefined ? {} : { syscall }),
    ...(path === undefined ? {} : { path }),
  };
}

/**
 * Each op's temporary file written, fsynced and renamed over its target: the durable writer's
 * replace, step by step over the whole share (every file written before the first fsync, as the
 * thread pool's interleaving did: the file system commits the files' creations together). A
 * failed step ends its op (its temporary file removed); the others go on.
 */
function replaceAll(ops: readonly FileWriteOp[]): (FileErrorInfo | null)[] {
  // At most OPEN_AT_ONCE descriptors at a time (a large batch must not exhaust them).
  const errors: (FileErrorInfo | null)[] = [];
  for (let i = 0; i < ops.length; i += OPEN_AT_ONCE) {
    errors.push(...replaceGroup(ops.slice(i, i + OPEN_AT_ONCE)));
  }
  return errors;
}

function replaceGroup(ops: readonly FileWriteOp[]): (FileErrorInfo | null)[] {
  const errors: (FileErrorInfo | null)[] = ops.map(() => null);
  const fds: (number | undefined)[] = ops.map(() => undefined);
  const step = (work: (op: FileWriteOp, i: number) => void) =>
    ops.forEach((op, i) => {
      if (errors[i] !== null) return;
      try {
        work(op, i);
      } catch (error) {
        errors[i] = infoOf(error);
      }
    });
  step((op, i) => {
    fds[i] = openSync(op.temp, "wx", PRIVATE_FILE_MODE);
    writeAll(fds[i] as number, op.data);
  });
  step((_, i) => fsyncSync(fds[i] as number));
  fds.forEach((fd, i) => {
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch (error) {
      errors[i] ??= infoOf(error);
    }
  });
  step((op) => renameSync(op.temp, op.path));
  ops.forEach((op, i) => {
    if (errors[i] === null) return;
    try {
      rmSync(op.temp, { force: true });
    } catch {
      // A leftover temporary file: the start-up sweep removes it.
    }
  });
  return errors;
}

function append(fd: number, text: string, sync: boolean): FileErrorInfo | null {
  try {
    writeAll(fd, text);
    if (sync) fdatasyncSync(fd);
    return null;
  } catch (error) {
    return infoOf(error);
  }
}

parentPort?.on("message", (request: FileRequest) => {
  const errors =
    request.kind === "replace"
      ? replaceAll(request.ops)
      : [append(request.fd, request.text, request.sync)];
  const reply: FileReply = { id: request.id, errors };
  parentPort?.postMessage(reply);
});
