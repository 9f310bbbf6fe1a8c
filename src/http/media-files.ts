// Serves the local file host's directory under /media. Only files the server itself stored are
// reachable: the key must pass the same safety rule the host applies when writing (so no `..`,
// absolute paths or odd characters), and it must name a regular file. The Content-Type comes
// from the stored extension, which the server chose from the detected content; the extra headers
// stop a browser from sniffing or running anything a file might contain.

import { createReadStream } from "node:fs";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { Hono } from "hono";
import { notFound } from "../domain/errors.ts";
import { contentTypeForKey } from "../media/content-types.ts";
import { isSafeKey } from "../media/local-directory.ts";
import type { HttpDeps, HttpEnv } from "./env.ts";

export const HOSTED_FILE_HEADERS = {
  "Cache-Control": "public, max-age=31536000, immutable",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  // Web clients draw avatars and media on canvases (blurhash previews, croppers).
  "Access-Control-Allow-Origin": "*",
} as const;

/** A regular file's size, or undefined when there is none at `path`. */
async function regularFileSize(path: string): Promise<number | undefined> {
  try {
    const info = await lstat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

export function mediaFileRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const directory = deps.mediaDirectory;
  if (directory === null) return;

  app.get("/media/*", async (c) => {
    const key = c.req.path.slice("/media/".length);
    if (!isSafeKey(key)) throw notFound();
    const path = join(directory, key);
    const size = await regularFileSize(path);
    if (size === undefined) throw notFound();
    const headers = new Headers({
      ...HOSTED_FILE_HEADERS,
      "Content-Type": contentTypeForKey(key),
      "Content-Length": String(size),
    });
    if (c.req.method === "HEAD") return new Response(null, { headers });
    const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
    return new Response(body, { headers });
  });
}
