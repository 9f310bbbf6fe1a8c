// The file host port: where uploaded and processed files live. Drivers: a local directory served
// by Wren (local-directory.ts) and any S3-compatible service (s3.ts). Keys are chosen by the
// server (never by a client) and are safe path segments joined by "/".

export interface FileHost {
  /** Stores bytes under `key`; resolves once they are durable. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes, or null when there is no such file (processing reads uploads back). */
  get(key: string): Promise<Uint8Array | null>;
  /**
   * Stores the local file at `path` under `key`, streamed rather than read into memory (an
   * account archive may be larger than memory); resolves once durable. Readers see the whole
   * file or none of it.
   */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /**
   * The file's size and a stream of its bytes (from `range.start`, `range.length` of them, when
   * given), for serving large files without holding them; null when there is no such file.
   */
  read(key: string, range?: ByteRange): Promise<FileStream | null>;
  /** Removes the file; missing files are not an error. */
  delete(key: string): Promise<void>;
  /** The public URL a client fetches the file from. */
  url(key: string): string;
}

export interface ByteRange {
  start: number;
  length: number;
}

export interface FileStream {
  /** The whole file's size in bytes. */
  size: number;
  body: ReadableStream<Uint8Array>;
}
