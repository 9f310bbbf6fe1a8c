// Sets headers on the response a handler produced, from middleware that runs after it. Not
// with c.header(): once a response exists, that asks whether its body was used, which makes the
// node adapter turn its lightweight response into a full web Response with a body stream (a
// tenth of a read's CPU). A response with immutable headers (made by fetch or
// Response.redirect) is copied first.

import type { Context } from "hono";
import type { HttpEnv } from "../env.ts";

function trySet(headers: Headers, values: Readonly<Record<string, string>>): boolean {
  try {
    for (const name in values) headers.set(name, values[name] as string);
    return true;
  } catch {
    return false;
  }
}

export function setResponseHeaders(
  c: Context<HttpEnv>,
  values: Readonly<Record<string, string>>,
): void {
  if (trySet(c.res.headers, values)) return;
  c.res = new Response(c.res.body, c.res);
  trySet(c.res.headers, values);
}
