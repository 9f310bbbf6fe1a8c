// CORS as Mastodon allows it: browser clients on any origin may call the API, OAuth token
// endpoints and discovery documents; credentials travel in the Authorization header, never in
// cookies, so a wildcard origin is safe.

import { cors } from "hono/cors";

export const CORS_PATHS = [
  "/api/*",
  "/oauth/token",
  "/oauth/revoke",
  "/oauth/userinfo",
  "/.well-known/*",
  "/nodeinfo/*",
];

export const apiCors = cors({
  origin: "*",
  allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
  allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "Accept"],
  exposeHeaders: [
    "Link",
    "X-RateLimit-Reset",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-Request-Id",
    "Idempotency-Key",
  ],
  maxAge: 86400,
});
