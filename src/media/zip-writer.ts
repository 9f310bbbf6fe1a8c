// A minimal zip writer (PKWARE APPNOTE 6.3, no zip64) for the account archive, writing to a file
// as it goes so that memory holds one chunk of an entry and the central directory, never the
// archive: an account's media can be gigabytes. Entries are compressed with node:zlib's raw
// deflate, streamed (or stored, for media that is compressed already) and checksummed with
// zlib.crc32; each entry's local header is written first as a placeholder and filled in once its
// data is written (the file is seekable, so no data descriptor is needed). Names are UTF-8 (flag
// bit 11). Limits of the plain format: fewer than 65,535 entries and 4 GiB in all, refused with an
// error beyond.

import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { crc32, createDeflateRaw } from "node:zlib";
import { PRIVATE_FILE_MODE } from "../private-modes.ts";

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
const UTF8_NAMES = 0x0800;
const VERSION = 20;
const MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;

interface CentralEntry {
  name: Buffer;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date fields of a moment (UTC; 2-second precision; 1980 at the earliest). */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getUTCFullYear(), 1980);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export type ZipSource = Uint8Array | string | AsyncIterable<Uint8Array | string>;

async function* chunksOf(source: ZipSource): AsyncGenerator<Buffer> {
  if (typeof source === "string") yield Buffer.from(source, "utf8");
  else if (source instanceof Uint8Array) yield Buffer.from(source);
  else {
    for await (const chunk of source) {
      yield typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk);
    }
  }
}

export class ZipWriter {
  private readonly entries: CentralEntry[] = [];
  private offset = 0;
  private readonly stamp: { time: number; date: number };
  private readonly handle: FileHandle;

  private constructor(handle: FileHandle, modified: Date) {
    this.handle = handle;
    this.stamp = dosTime(modified);
  }

  /** A new archive at `path` (replaced if there is one). */
  static async create(path: string, modified: Date): Promise<ZipWriter> {
    return new ZipWriter(await open(path, "w", PRIVATE_FILE_MODE), modified);
  }

  /**
   * Adds a file from bytes, text or a stream of chunks (consumed as they are written);
   * `compress: false` stores it as is (JPEG, MP4…: deflate would gain nothing).
   */
  async add(name: string, source: ZipSource, options: { compress?: boolean } = {}): Promise<void> {
    if (this.entries.length >= MAX_ENTRIES) throw new Error("Too many files for a zip archive");
    const nameBytes = Buffer.from(name, "utf8");
    const compress = options.compress ?? true;
    const entry: CentralEntry = {
      name: nameBytes,
      method: compress ? 8 : 0,
      crc: 0,
      compressed: 0,
      size: 0,
      offset: this.offset,
    };
    // The header's place, filled in once the data is written.
    await this.write(Buffer.alloc(30), nameBytes);
    const dataStart = this.offset;
    if (compress) {
      const deflate = createDeflateRaw();
      const written = (async () => {
        for await (const out of deflate) await this.write(out as Buffer);
      })();
      try {
        for await (const chunk of chunksOf(source)) {
          entry.crc = crc32(chunk, entry.crc);
          entry.size += chunk.length;
          // Waits for the file to take the output (or for the write to fail: disk full).
          if (!deflate.write(chunk)) {
            await Promise.race([new Promise((resolve) => deflate.once("drain", resolve)), written]);
          }
        }
      } finally {
        deflate.end();
        await written;
      }
    } else {
      for await (const chunk of chunksOf(source)) {
        entry.crc = crc32(chunk, entry.crc);
        entry.size += chunk.length;
        await this.write(chunk);
      }
    }
    entry.compressed = this.offset - dataStart;
    if (entry.size > MAX_OFFSET) throw new Error("The archive is larger than 4 GiB");
    await this.handle.write(this.localHeader(entry), 0, 30, entry.offset);
    this.entries.push(entry);
  }

  /** Writes the central directory, makes the file durable and closes it; returns its size. */
  async finish(): Promise<number> {
    const start = this.offset;
    for (const e of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(CENTRAL_HEADER, 0);
      // Made on Unix (3), so the external attributes are a file mode: read-only, as Mastodon's.
      header.writeUInt16LE((3 << 8) | VERSION, 4);
      this.writeEntryFields(header, 6, e);
      // Extra field, comment, disk number, internal attributes: none.
      header.writeUInt32LE(0o100444 * 0x10000, 38);
      header.writeUInt32LE(e.offset, 42);
      await this.write(header, e.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
    await this.handle.sync();
    await this.handle.close();
    return this.offset;
  }

  /** Closes the file without finishing it (the caller removes it). */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => {});
  }

  private localHeader(entry: CentralEntry): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    this.writeEntryFields(header, 4, entry);
    header.writeUInt16LE(0, 28);
    return header;
  }

  /**
   * The fields the local and the central header share, in the same order (version needed, flags,
   * method, time, date, CRC, sizes, name length), from `at` on: only their offsets differ.
   */
  private writeEntryFields(header: Buffer, at: number, entry: CentralEntry): void {
    header.writeUInt16LE(VERSION, at);
    header.writeUInt16LE(UTF8_NAMES, at + 2);
    header.writeUInt16LE(entry.method, at + 4);
    header.writeUInt16LE(this.stamp.time, at + 6);
    header.writeUInt16LE(this.stamp.date, at + 8);
    header.writeUInt32LE(entry.crc, at + 10);
    header.writeUInt32LE(entry.compressed, at + 14);
    header.writeUInt32LE(entry.size, at + 18);
    header.writeUInt16LE(entry.name.length, at + 22);
  }

  private async write(...parts: Buffer[]): Promise<void> {
    for (const part of parts) {
      if (this.offset + part.length > MAX_OFFSET) {
        throw new Error("The archive is larger than 4 GiB");
      }
      await this.handle.write(part, 0, part.length, this.offset);
      this.offset += part.length;
    }
  }
}
