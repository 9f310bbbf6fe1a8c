// Mastodon-style rate limiting: a fixed window per caller, announced in X-RateLimit-Limit,
// -Remaining and -Reset on every counted answer and refused with 429 once spent. Each limit
// decides who a request counts against (tokenOrAddress: the verified token, else the client
// address) and how a refusal looks (by default Mastodon's JSON error). Counters live in memory,
// capped in size (fixed-windows.ts): one process's view, which is what a single-process
// deployment needs; several processes each count their own share until the counters move to a
// shared store. Budgets that must hold across processes and restarts (statuses, media) are
// kept in storage instead (action-budget.ts).

import type { Context, MiddlewareHandler } from "hono";
import type { Clock } from "../../domain/clock.ts";
import { tooManyRequests } from "../../domain/errors.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { HttpEnv } from "../env.ts";
import { verifiedCaller } from "./caller.ts";
import { clientAddress } from "./client-address.ts";
import { FixedWindows, type Window } from "./fixed-windows.ts";
import { responseHeader, setResponseHeaders } from "./response-headers.ts";

/** Who a request counts against; null lets it through uncounted (the limit does not apply). */
export type RateLimitKey = (c: Context<HttpEnv>) => string | null | Promise<string | null>;

/** How many caller keys one limit tracks at most unless told otherwise (see FixedWindows). */
export const DEFAULT_MAX_TRACKED_KEYS = 100_000;

export interface RateLimitOptions {
  requests: number;
  windowSeconds: number;
  key: RateLimitKey;
  /** Cap on the caller keys held in memory at once. */
  maxKeys?: number;
  /**
   * Count only requests answered with a success: the budget is checked before, spent after. For
   * keys a caller could claim without proof (a signature's key id before it is verified), so a
   * forger cannot spend another sender's budget.
   */
  countSuccessOnly?: boolean;
  /** The answer to a refused request; the X-RateLimit-* headers are set on `c` already. */
  refuse?: (c: Context<HttpEnv>) => Response | Promise<Response>;
}

export type RateLimiter = MiddlewareHandler<HttpEnv> & {
  /** How many caller keys the limit holds in memory now. */
  trackedKeys(): number;
};

/**
 * The verified token when there is one (an app's users share an address), else the client
 * address: a missing, malformed or unknown token counts against where it came from, so a new
 * junk token per request neither escapes the limit nor adds a key.
 */
export function tokenOrAddress(ctx: ServiceContext): RateLimitKey {
  return async (c) => {
    const caller = await verifiedCaller(c, ctx);
    return caller ? `token:${caller.token.id}` : `ip:${clientAddress(c)}`;
  };
}

/** The account of a verified user token (all its tokens together); other requests pass. */
export function byAccount(ctx: ServiceContext): RateLimitKey {
  return async (c) => {
    const account = (await verifiedCaller(c, ctx))?.account;
    return account ? `account:${account.id}` : null;
  };
}

export const byAddress: RateLimitKey = (c) => `ip:${clientAddress(c)}`;

const refuseWithJson = (): never => {
  throw tooManyRequests("Too many requests");
};

function headersOf(requests: number, window: Window | undefined, used: number) {
  return {
    "X-RateLimit-Limit": String(requests),
    "X-RateLimit-Remaining": String(Math.max(requests - used, 0)),
    ...(window ? { "X-RateLimit-Reset": window.resetHeader } : {}),
  };
}

export function rateLimit(options: RateLimitOptions, clock: Clock): RateLimiter {
  const windows = new FixedWindows(
    options.windowSeconds,
    options.maxKeys ?? DEFAULT_MAX_TRACKED_KEYS,
  );
  const refuse = options.refuse ?? refuseWithJson;

  const handler: MiddlewareHandler<HttpEnv> = async (c, next) => {
    const key = await options.key(c);
    if (key === null) return next();
    const now = clock.now().getTime();
    let window: Window | undefined;
    let used: number;
    if (options.countSuccessOnly) {
      window = windows.peek(key, now);
      used = (window?.used ?? 0) + 1;
    } else {
      window = windows.hit(key, now);
      used = window.used;
    }
    const headers = headersOf(options.requests, window, used);
    if (used > options.requests) {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return refuse(c);
    }
    await next();
    if (options.countSuccessOnly) {
      if (c.res.status < 400) windows.hit(key, clock.now().getTime());
      return;
    }
    // Where another limit (checked after this one) is as close or closer to refusing, its
    // headers stand: they tell the caller the most about when it will be refused.
    const inner = responseHeader(c, "X-RateLimit-Remaining");
    if (inner !== null && Number(inner) <= Number(headers["X-RateLimit-Remaining"])) return;
    setResponseHeaders(c, headers);
  };
  return Object.assign(handler, { trackedKeys: () => windows.size });
}
