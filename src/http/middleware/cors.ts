// CORS as Mastodon allows it: browser clients on any origin may call the API, OAuth token
// endpoints and discovery documents; credentials travel in the Authorization header, never in
// cookies, so a wildcard origin is safe. Written here rather than with hono/cors because that one
// sets its headers before the handler runs, which makes Hono build a placeholder Response and
// copy it into the real one on every request (a tenth of a timeline read's CPU).

import type { MiddlewareHandler } from "hono";
import type { HttpEnv } from "../env.ts";
import { setResponseHeaders } from "./response-headers.ts";

export const CORS_PATHS = [
  "/api/*",
  "/oauth/token",
  "/oauth/revoke",
  "/oauth/userinfo",
  "/.well-known/*",
  "/nodeinfo/*",
];

const EXPOSED = [
  "Link",
  "X-RateLimit-Reset",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-Request-Id",
  "Idempotency-Key",
  // Announces background work in progress (annual reports; see services/async-refreshes).
  "Mastodon-Async-Refresh",
].join(",");

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSED,
};

const PREFLIGHT_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": EXPOSED,
  "Access-Control-Max-Age": "86400",
  "Access-Control-Allow-Methods": "GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS",
  "Access-Control-Allow-Headers": "Authorization,Content-Type,Idempotency-Key,Accept",
  Vary: "Access-Control-Request-Headers",
};

/** A comma-separated list of header names (RFC 9110 tokens), as a preflight asks them. */
const HEADER_NAMES = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/**
 * Mastodon allows any request header (rack-cors `headers: :any` echoes the asked ones): a web
 * app whose fetches carry tracing headers (Sentry's `sentry-trace` and `baggage`) or one of its
 * own would otherwise be refused by the browser before its request leaves.
 */
function preflightHeaders(asked: string | undefined): Record<string, string> {
  const names = asked?.trim();
  if (!names || names.length > 1024 || !HEADER_NAMES.test(names)) return PREFLIGHT_HEADERS;
  return { ...PREFLIGHT_HEADERS, "Access-Control-Allow-Headers": names };
}

export const apiCors: MiddlewareHandler<HttpEnv> = async (c, next) => {
  if (c.req.method === "OPTIONS") {
    const asked = c.req.header("access-control-request-headers");
    return new Response(null, { status: 204, headers: preflightHeaders(asked) });
  }
  await next();
  setResponseHeaders(c, CORS_HEADERS);
};
