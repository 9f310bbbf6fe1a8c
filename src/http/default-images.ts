// The images a profile shows before its owner uploads any, at the paths Mastodon uses
// (`/avatars/original/missing.png`, `/headers/original/missing.png`), so clients that recognise
// those paths treat them as "no image". The files ship with the code under http/assets/.

import { readFileSync } from "node:fs";
import type { Hono } from "hono";
import type { HttpDeps, HttpEnv } from "./env.ts";
import { HOSTED_FILE_HEADERS } from "./media-files.ts";

export const MISSING_AVATAR_PATH = "/avatars/original/missing.png";
export const MISSING_HEADER_PATH = "/headers/original/missing.png";

function asset(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./assets/${name}`, import.meta.url)));
}

export function defaultImageRoutes(app: Hono<HttpEnv>, _deps: HttpDeps): void {
  const images: [string, Uint8Array][] = [
    [MISSING_AVATAR_PATH, asset("avatar-missing.png")],
    [MISSING_HEADER_PATH, asset("header-missing.png")],
  ];
  for (const [path, bytes] of images) {
    app.get(path, (c) => {
      const headers = new Headers({
        ...HOSTED_FILE_HEADERS,
        // Not immutable: an operator may replace the image in a later version.
        "Cache-Control": "public, max-age=86400",
        "Content-Type": "image/png",
        "Content-Length": String(bytes.byteLength),
      });
      return new Response(c.req.method === "HEAD" ? null : bytes.slice(), { headers });
    });
  }
}
