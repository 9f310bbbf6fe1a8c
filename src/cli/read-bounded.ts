// Reading a file named on the command line: the command reads it itself (refusing anything but
// a regular file, and no more than the size limit allows) and sends its bytes, so a running
// server never opens a path given on a command line.

import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { UsageError } from "./command.ts";

/** At most `limit` bytes of a regular file (a FIFO or a device could stream forever). */
export async function readBounded(
  path: string,
  limit: number,
  helpCommand: string,
): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // Non-blocking, so opening a FIFO returns at once (to be refused below) instead of waiting
    // for a writer; regular files read as usual.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UsageError(`No such file: ${path}`, helpCommand);
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new UsageError(`Not a regular file: ${path}`, helpCommand);
    const buffer = Buffer.alloc(limit);
    let filled = 0;
    while (filled < limit) {
      const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
