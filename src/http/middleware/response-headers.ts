// Sets headers on the response a handler produced, from middleware that runs after it (CORS,
// request ids, rate limits). Served by Node, they go straight onto the ServerResponse, which the
// node adapter merges with the handler's own headers when it writes the head: no web Headers
// object is built or copied for them (their validation was a tenth of a small read's CPU), and
// c.header() is avoided, which would turn a finished lightweight response into a streamed web
// Response. Without Node bindings (app.request in tests), the web Response's headers are set; one
// with immutable headers (made by fetch or Response.redirect) is copied first.

import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type { HttpEnv } from "../env.ts";

function outgoingOf(c: Context<HttpEnv>): HttpBindings["outgoing"] | undefined {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}

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
  const outgoing = outgoingOf(c);
  if (outgoing) {
    for (const name in values) outgoing.setHeader(name, values[name] as string);
    return;
  }
  if (trySet(c.res.headers, values)) return;
  c.res = new Response(c.res.body, c.res);
  trySet(c.res.headers, values);
}

/** A header set by setResponseHeaders (or, without Node bindings, on the response). */
export function responseHeader(c: Context<HttpEnv>, name: string): string | null {
  const outgoing = outgoingOf(c);
  if (outgoing) {
    const value = outgoing.getHeader(name);
    return value === undefined ? null : String(value);
  }
  return c.res.headers.get(name);
}
