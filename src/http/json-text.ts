// Answers with JSON that is already text (rendered by serialization/mastodon/status-text.ts),
// with the same Content-Type as c.json. Encoded to bytes here, once: handed a string, the node
// adapter measures its UTF-8 length and then encodes it again while writing (and a text built
// by concatenation must be flattened first). Bytes already encoded (a timeline page written from
// kept encoded parts, status-json.ts renderResolvedBytes) are sent as they are.

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HttpEnv } from "./env.ts";

export function jsonText(
  c: Context<HttpEnv>,
  text: string | Buffer<ArrayBuffer>,
  status: ContentfulStatusCode = 200,
) {
  return c.body(typeof text === "string" ? Buffer.from(text) : text, status, {
    "Content-Type": "application/json",
  });
}
