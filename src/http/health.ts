// GET /health: the liveness probe load balancers and uptime monitors poll, answered as
// Mastodon's is (200, plain-text "OK", never cached). It reads nothing, so a slow store does
// not make a healthy process look dead.

import type { Hono } from "hono";
import type { HttpEnv } from "./env.ts";

export function healthRoutes(app: Hono<HttpEnv>): void {
  app.get("/health", (c) => {
    c.header("Cache-Control", "no-store");
    return c.text("OK");
  });
}
