// Mastodon-style rate limiting: a fixed window per caller (the bearer token, else the client
// address), announced in X-RateLimit-Limit/-Remaining/-Reset on every answer and refused with
// 429 once spent. Counters live in memory: one process's view, which is what a single-process
// deployment needs; the scale-out backend will keep them in PostgreSQL.

import type { Context, MiddlewareHandler } from "hono";
import type { Clock } from "../../domain/clock.ts";
import { tooManyRequests } from "../../domain/errors.ts";
import type { HttpEnv } from "../env.ts";

interface Window {
  resetAt: number;
  used: number;
}

function callerKey(c: Context<HttpEnv>): string {
  const auth = c.req.header("authorization");
  if (auth) return `token:${auth}`;
  // The Node adapter exposes the socket as env.incoming; in-process requests have none.
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming;
  return `ip:${incoming?.socket?.remoteAddress ?? "local"}`;
}

export function rateLimit(
  options: { requests: number; windowSeconds: number },
  clock: Clock,
): MiddlewareHandler<HttpEnv> {
  const windows = new Map<string, Window>();
  const windowMs = options.windowSeconds * 1000;
  let nextSweep = 0;

  return async (c, next) => {
    const now = clock.now().getTime();
    if (now >= nextSweep) {
      // Drop finished windows so idle callers do not accumulate.
      for (const [key, w] of windows) if (w.resetAt <= now) windows.delete(key);
      nextSweep = now + windowMs;
    }
    const key = callerKey(c);
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { resetAt: now + windowMs, used: 0 };
      windows.set(key, window);
    }
    window.used += 1;
    const remaining = Math.max(options.requests - window.used, 0);
    const headers = {
      "X-RateLimit-Limit": String(options.requests),
      "X-RateLimit-Remaining": String(remaining),
      "X-RateLimit-Reset": new Date(window.resetAt).toISOString(),
    };
    if (window.used > options.requests) {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      throw tooManyRequests("Too many requests");
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
