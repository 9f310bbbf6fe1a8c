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

export const apiCors: MiddlewareHandler<HttpEnv> = async (c, next) => {
  if (c.req.method === "OPTIONS") {
    return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
  }
  await next();
  setResponseHeaders(c, CORS_HEADERS);
};
