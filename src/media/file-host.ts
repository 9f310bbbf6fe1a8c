// The file host port: where uploaded and processed files live. Drivers: a local directory served
// by Wren (local-directory.ts) and any S3-compatible service (s3.ts). Keys are chosen by the
// server (never by a client) and are safe path segments joined by "/".

export interface FileHost {
  /** Stores bytes under `key`; resolves once they are durable. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes, or null when there is no such file (processing reads uploads back). */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the file; missing files are not an error. */
  delete(key: string): Promise<void>;
  /** The public URL a client fetches the file from. */
  url(key: string): string;
}
