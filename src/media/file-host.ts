// The file host port: where uploaded and processed files live. Drivers: a local directory served
// by Wren (local-directory.ts) and, later, any S3-compatible service. Keys are chosen by the
// server (never by a client) and are safe path segments joined by "/".

export interface FileHost {
  /** Stores bytes under `key`; resolves once they are durable. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Removes the file; missing files are not an error. */
  delete(key: string): Promise<void>;
  /** The public URL a client fetches the file from. */
  url(key: string): string;
}
