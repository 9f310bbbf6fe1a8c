// The request's path and query as the client sent them, read from the URL string the node adapter
// built (scheme://host/path?query#fragment) without parsing it into a URL object, which was a few
// percent of a read. The adapter normalises any URL with unusual characters before, so the parts
// are what a URL object would give.

import type { Context } from "hono";
import type { HttpEnv } from "./env.ts";

export interface RequestTarget {
  /** The path, still percent-encoded. */
  path: string;
  /** The query without its "?"; empty when there is none. */
  query: string;
}

export function requestTarget(c: Context<HttpEnv>): RequestTarget {
  const full = c.req.url;
  const hash = full.indexOf("#");
  const url = hash < 0 ? full : full.slice(0, hash);
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const queryStart = url.indexOf("?", pathStart);
  return queryStart < 0
    ? { path: url.slice(pathStart), query: "" }
    : { path: url.slice(pathStart, queryStart), query: url.slice(queryStart + 1) };
}
