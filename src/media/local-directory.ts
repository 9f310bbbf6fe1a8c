// The default file host: files in a directory that Wren itself serves under /media (see
// http/media-files.ts). Writes are crash-safe like the JSON records: a temporary file is written
// and fsynced, renamed over the target, and the directory is fsynced so the rename survives a
// power cut. A reader (or a crash) therefore sees the old file or the new one, never half of one.

import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, mkdir, open, readFile, rename, rm, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-modes.ts";
import type { FileHost, FileStream } from "./file-host.ts";

// One segment: starts with a letter or digit, then letters, digits, `_`, `-` and `.`. That rules
// out `.`/`..`, hidden files, empty segments, backslashes, NUL and percent-encoding tricks.
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const MAX_SEGMENTS = 8;
const TEMP_SUFFIX = ".wren-tmp";

/** Is `key` a server-made relative path of safe segments (no `..`, not absolute)? */
export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  const segments = key.split("/");
  if (segments.length > MAX_SEGMENTS) return false;
  return segments.every((s) => SEGMENT.test(s) && !s.includes("..") && !s.endsWith(TEMP_SUFFIX));
}

function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe file key: ${JSON.stringify(key)}`);
}

async function fsyncDirectory(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export function createLocalDirectoryHost(directory: string, publicBaseUrl: string): FileHost {
  const base = publicBaseUrl.replace(/\/+$/, "");

  /** Writes a temporary file beside the target with `fill`, fsyncs it, renames it over. */
  async function replace(key: string, fill: (temp: string) => Promise<void>): Promise<void> {
    assertSafeKey(key);
    const target = join(directory, key);
    const folder = dirname(target);
    await mkdir(folder, { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${target}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
    try {
      await fill(temp);
      const handle = await open(temp, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await fsyncDirectory(folder);
  }

  return {
    put(key, bytes) {
      return replace(key, async (temp) => {
        const handle = await open(temp, "wx", PRIVATE_FILE_MODE);
        try {
          await handle.writeFile(bytes);
        } finally {
          await handle.close();
        }
      });
    },

    putFile(key, path) {
      // The kernel copies (or clones) it: nothing passes through memory here.
      return replace(key, (temp) => copyFile(path, temp));
    },

    async read(key, range): Promise<FileStream | null> {
      assertSafeKey(key);
      const path = join(directory, key);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      const start = range?.start ?? 0;
      // createReadStream's `end` is inclusive and may not come before `start`: an empty range, an
      // empty file or a range starting at (or past) the end reads nothing, as S3 answers it.
      const end = Math.min(range ? start + range.length - 1 : size - 1, size - 1);
      const stream = end < start ? Readable.from([]) : createReadStream(path, { start, end });
      return { size, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
    },

    async get(key) {
      assertSafeKey(key);
      try {
        return new Uint8Array(await readFile(join(directory, key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },

    async delete(key) {
      assertSafeKey(key);
      const target = join(directory, key);
      try {
        await unlink(target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      await fsyncDirectory(dirname(target));
    },

    url(key) {
      assertSafeKey(key);
      return `${base}/${key}`;
    },
  };
}
