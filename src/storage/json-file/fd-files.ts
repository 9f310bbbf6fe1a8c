// The few file operations of a durable write on plain descriptors, through fs's callbacks.
// `fs/promises` wraps each descriptor in a FileHandle (a native object with a finaliser, an event
// emitter, close bookkeeping) and its writeFile in a chunked loop: for the handful of calls of one
// small status file that machinery cost a third of the main thread's time per write
// (ADR 0050). Each function here is one request to libuv's thread pool.

import { closeSync, fdatasync, fsync, open, write } from "node:fs";

function settle<T>(resolve: (value: T) => void, reject: (error: unknown) => void) {
  return (error: NodeJS.ErrnoException | null, value?: T) =>
    error ? reject(error) : resolve(value as T);
}

export function openFd(path: string, flags: string, mode?: number): Promise<number> {
  return new Promise((resolve, reject) => open(path, flags, mode, settle(resolve, reject)));
}

/**
 * Closes at once, on the calling thread: every descriptor here is closed after its fsync (or on
 * a failure before any data was written), when close(2) has no data to wait for and takes a few
 * microseconds, less than the thread pool's hand-off there and back.
 */
export function closeFd(fd: number): void {
  closeSync(fd);
}

/** fsync, or fdatasync with `dataOnly` (the file's size and times need not be durable). */
export function syncFd(fd: number, dataOnly = false): Promise<void> {
  return new Promise((resolve, reject) =>
    (dataOnly ? fdatasync : fsync)(fd, settle(resolve, reject)),
  );
}

/** Writes all of `data` at the descriptor's position (a short write continues where it ended). */
export async function writeAllFd(fd: number, data: string | Buffer): Promise<void> {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let offset = 0;
  while (offset < bytes.length) {
    offset += await new Promise<number>((resolve, reject) =>
      write(fd, bytes, offset, bytes.length - offset, null, settle(resolve, reject)),
    );
  }
}
