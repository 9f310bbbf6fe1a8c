// Answers with JSON that is already text (rendered by serialization/mastodon/status-text.ts),
// with the same Content-Type as c.json.

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { HttpEnv } from "./env.ts";

export function jsonText(c: Context<HttpEnv>, text: string, status: ContentfulStatusCode = 200) {
  return c.body(text, status, { "Content-Type": "application/json" });
}
