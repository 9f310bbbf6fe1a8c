// Mastodon-style rate limiting: a fixed window per caller, announced in X-RateLimit-Limit,
// -Remaining and -Reset on every counted answer and refused with 429 once spent. Each limit
// decides who a request counts against (by default the bearer token, else the client address)
// and how a refusal looks (by default Mastodon's JSON error). Counters live in memory: one
// process's view, which is what a single-process deployment needs; the scale-out backend will
// keep them in PostgreSQL.

import type { Context, MiddlewareHandler } from "hono";
import type { Clock } from "../../domain/clock.ts";
import { tooManyRequests } from "../../domain/errors.ts";
import type { HttpEnv } from "../env.ts";
import { clientAddress } from "./client-address.ts";
import { responseHeader, setResponseHeaders } from "./response-headers.ts";

interface Window {
  resetAt: number;
  /** resetAt as the header shows it, formatted once per window. */
  resetHeader: string;
  used: number;
}

/** Who a request counts against; null lets it through uncounted (the limit does not apply). */
export type RateLimitKey = (c: Context<HttpEnv>) => string | null | Promise<string | null>;

export interface RateLimitOptions {
  requests: number;
  windowSeconds: number;
  key?: RateLimitKey;
  /** The answer to a refused request; the X-RateLimit-* headers are set on `c` already. */
  refuse?: (c: Context<HttpEnv>) => Response | Promise<Response>;
}

/** The bearer token when there is one (an app's users share an address), else the address. */
export const tokenOrAddress: RateLimitKey = (c) => {
  const auth = c.req.header("authorization");
  return auth ? `token:${auth}` : `ip:${clientAddress(c)}`;
};

export const byAddress: RateLimitKey = (c) => `ip:${clientAddress(c)}`;

const refuseWithJson = (): never => {
  throw tooManyRequests("Too many requests");
};

export function rateLimit(options: RateLimitOptions, clock: Clock): MiddlewareHandler<HttpEnv> {
  const windows = new Map<string, Window>();
  const windowMs = options.windowSeconds * 1000;
  const keyOf = options.key ?? tokenOrAddress;
  const refuse = options.refuse ?? refuseWithJson;
  let nextSweep = 0;

  return async (c, next) => {
    const key = await keyOf(c);
    if (key === null) return next();
    const now = clock.now().getTime();
    if (now >= nextSweep) {
      // Drop finished windows so idle callers do not accumulate.
      for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
      nextSweep = now + windowMs;
    }
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      const resetAt = now + windowMs;
      window = { resetAt, resetHeader: new Date(resetAt).toISOString(), used: 0 };
      windows.set(key, window);
    }
    window.used += 1;
    const headers = {
      "X-RateLimit-Limit": String(options.requests),
      "X-RateLimit-Remaining": String(Math.max(options.requests - window.used, 0)),
      "X-RateLimit-Reset": window.resetHeader,
    };
    if (window.used > options.requests) {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return refuse(c);
    }
    await next();
    // Where another limit (checked after this one) is as close or closer to refusing, its
    // headers stand: they tell the caller the most about when it will be refused.
    const inner = responseHeader(c, "X-RateLimit-Remaining");
    if (inner !== null && Number(inner) <= Number(headers["X-RateLimit-Remaining"])) return;
    setResponseHeaders(c, headers);
  };
}
