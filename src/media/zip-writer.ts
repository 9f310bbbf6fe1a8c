// A minimal zip writer (PKWARE APPNOTE 6.3, no zip64) for the account archive: entries are
// compressed with node:zlib's raw deflate (or stored, for media that is compressed already) and
// checksummed with zlib.crc32, so no package is needed. Names are UTF-8 (flag bit 11). Limits of
// the plain format: fewer than 65,535 entries and 4 GiB in all, refused with an error beyond.

import { crc32, deflateRawSync } from "node:zlib";

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
  time: number;
  date: number;
}

/** MS-DOS time and date fields of a moment (UTC; 2-second precision; 1980 at the earliest). */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getUTCFullYear(), 1980);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

export class ZipWriter {
  private readonly chunks: Buffer[] = [];
  private readonly entries: CentralEntry[] = [];
  private offset = 0;
  private readonly stamp: { time: number; date: number };

  constructor(modified: Date) {
    this.stamp = dosTime(modified);
  }

  /** Adds a file; `compress: false` stores it as is (JPEG, MP4…: deflate would gain nothing). */
  add(name: string, data: Uint8Array, options: { compress?: boolean } = {}): void {
    if (this.entries.length >= MAX_ENTRIES) throw new Error("Too many files for a zip archive");
    const nameBytes = Buffer.from(name, "utf8");
    const compress = options.compress ?? true;
    const body = compress ? deflateRawSync(data) : Buffer.from(data);
    const entry: CentralEntry = {
      name: nameBytes,
      method: compress ? 8 : 0,
      crc: crc32(data),
      compressed: body.length,
      size: data.length,
      offset: this.offset,
      ...this.stamp,
    };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL_HEADER, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(UTF8_NAMES, 6);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(entry.time, 10);
    header.writeUInt16LE(entry.date, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    header.writeUInt16LE(0, 28);
    this.push(header, nameBytes, body);
    this.entries.push(entry);
  }

  /** The whole archive: the entries, then the central directory. */
  finish(): Buffer {
    const start = this.offset;
    for (const e of this.entries) {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(CENTRAL_HEADER, 0);
      // Made on Unix (3), so the external attributes are a file mode: read-only, as Mastodon's.
      header.writeUInt16LE((3 << 8) | VERSION, 4);
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(UTF8_NAMES, 8);
      header.writeUInt16LE(e.method, 10);
      header.writeUInt16LE(e.time, 12);
      header.writeUInt16LE(e.date, 14);
      header.writeUInt32LE(e.crc, 16);
      header.writeUInt32LE(e.compressed, 20);
      header.writeUInt32LE(e.size, 24);
      header.writeUInt16LE(e.name.length, 28);
      // Extra field, comment, disk number, internal attributes: none.
      header.writeUInt32LE(0o100444 * 0x10000, 38);
      header.writeUInt32LE(e.offset, 42);
      this.push(header, e.name);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END_OF_CENTRAL, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.push(end);
    return Buffer.concat(this.chunks);
  }

  private push(...parts: Buffer[]): void {
    for (const part of parts) {
      this.offset += part.length;
      if (this.offset > MAX_OFFSET) throw new Error("The archive is larger than 4 GiB");
      this.chunks.push(part);
    }
  }
}
