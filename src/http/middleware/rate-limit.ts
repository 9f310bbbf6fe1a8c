// Mastodon-style rate limiting: a fixed window per caller, announced in X-RateLimit-Limit,
// -Remaining and -Reset on every counted answer and refused with 429 once spent. Each limit
// decides who a request counts against (tokenOrAddress: the verified token, else the client
// address) and how a refusal looks (by default Mastodon's JSON error). Where one process owns
// the storage (json-file), counters live in its memory, capped in size (fixed-windows.ts): exact
// there, and the fastest place on this hot path. Where several processes share the storage
// (PostgreSQL), they count in the storage's shared window counters (Coordination.countInTurn,
// reservable: a process may hold a few units of a window and answer its next hits and looks
// from them, ADRs 0042 and 0057), so a caller's requests add up whichever process answers them.
// Budgets that must also hold across
// restarts (statuses, media) are kept in storage either way (action-budget.ts).

import type { Context, MiddlewareHandler } from "hono";
import { tooManyRequests } from "../../domain/errors.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { Coordination, CounterWindow } from "../../storage/ports.ts";
import type { HttpEnv, Viewer } from "../env.ts";
import { verifiedCaller } from "./caller.ts";
import { clientAddress } from "./client-address.ts";
import { compact, FixedWindows, type Window } from "./fixed-windows.ts";
import { responseHeader, setResponseHeaders } from "./response-headers.ts";

/** Who a request counts against; null lets it through uncounted (the limit does not apply). */
export type RateLimitKey = (c: Context<HttpEnv>) => string | null | Promise<string | null>;

/** How many caller keys one limit tracks at most unless told otherwise (see FixedWindows). */
export const DEFAULT_MAX_TRACKED_KEYS = 100_000;

export interface RateLimitOptions {
  /** Names the limit's counters where they are shared (two limits may count the same caller). */
  name: string;
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

/** Where a limit counts: this process's memory (sync) or the storage's shared counters. */
interface Counters {
  hit(callerKey: string, now: number): Window | Promise<Window>;
  /** The caller's current window without counting; undefined when it has none. */
  peek(callerKey: string, now: number): Window | undefined | Promise<Window | undefined>;
  readonly size: number;
}

/** A limit's key for a caller among the storage's shared counters. */
const sharedKey = (name: string, callerKey: string) => `rate:${name}:${compact(callerKey)}`;

/**
 * Reset times formatted, by time: a window's every hit answers the same one, and a request's
 * limits a few (emptied when large: the windows of many callers end at many times).
 */
const resetHeaders = new Map<number, string>();
const resetHeaderOf = (resetAt: number): string => {
  let header = resetHeaders.get(resetAt);
  if (header === undefined) {
    if (resetHeaders.size >= 1024) resetHeaders.clear();
    header = new Date(resetAt).toISOString();
    resetHeaders.set(resetAt, header);
  }
  return header;
};

const asWindow = (w: CounterWindow): Window => ({
  resetAt: w.resetAt,
  used: w.used,
  resetHeader: resetHeaderOf(w.resetAt),
});

function sharedCounters(
  coordination: Coordination,
  name: string,
  windowMs: number,
  limit: number,
): Counters {
  const keyOf = (callerKey: string) => sharedKey(name, callerKey);
  return {
    // Reservable: a hit may take a few units of the window at once and this process answer its
    // next hits (and looks, `peek`) from them without a statement (ADRs 0042 and 0057).
    async hit(callerKey, now) {
      const [window] = await coordination.countInTurn(
        [{ key: keyOf(callerKey), amount: 1, windowMs, limit, reservable: true }],
        now,
      );
      if (window === undefined) throw new Error("A lone hit was not counted");
      return asWindow(window);
    },
    async peek(callerKey, now) {
      const window = await coordination.count(keyOf(callerKey), 0, windowMs, now);
      return window.used === 0 ? undefined : asWindow(window);
    },
    // Nothing is held in this process's memory.
    size: 0,
  };
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
  const keyOf = (c: Context<HttpEnv>, caller: Viewer | null) =>
    caller ? `token:${caller.token.id}` : `ip:${clientAddress(c)}`;
  return (c) => {
    // Without a promise once the caller is known (and for a request with no bearer token).
    const caller = verifiedCaller(c, ctx);
    return caller instanceof Promise ? caller.then((v) => keyOf(c, v)) : keyOf(c, caller);
  };
}

/** The account of a verified user token (all its tokens together); other requests pass. */
export function byAccount(ctx: ServiceContext): RateLimitKey {
  const keyOf = (caller: Viewer | null) =>
    caller?.account ? `account:${caller.account.id}` : null;
  return (c) => {
    const caller = verifiedCaller(c, ctx);
    return caller instanceof Promise ? caller.then(keyOf) : keyOf(caller);
  };
}

export const byAddress: RateLimitKey = (c) => `ip:${clientAddress(c)}`;

const refuseWithJson = (): never => {
  throw tooManyRequests("Too many requests");
};

type RateLimitHeaders = ReturnType<typeof headersOf>;

function headersOf(requests: number, window: Window | undefined, used: number) {
  return {
    "X-RateLimit-Limit": String(requests),
    "X-RateLimit-Remaining": String(Math.max(requests - used, 0)),
    ...(window ? { "X-RateLimit-Reset": window.resetHeader } : {}),
  };
}

export function rateLimit(
  options: RateLimitOptions,
  ctx: Pick<ServiceContext, "clock" | "storage">,
): RateLimiter {
  const { clock } = ctx;
  const { coordination } = ctx.storage;
  const windows: Counters = coordination.exclusive
    ? new FixedWindows(options.windowSeconds, options.maxKeys ?? DEFAULT_MAX_TRACKED_KEYS)
    : sharedCounters(coordination, options.name, options.windowSeconds * 1000, options.requests);
  const refuse = options.refuse ?? refuseWithJson;

  const handler: MiddlewareHandler<HttpEnv> = async (c, next) => {
    const key = await options.key(c);
    if (key === null) return next();
    const now = clock.now().getTime();
    let window: Window | undefined;
    let used: number;
    // The in-memory counters answer at once: no await (a microtask) on the hot path.
    if (options.countSuccessOnly) {
      const peeked = windows.peek(key, now);
      window = peeked instanceof Promise ? await peeked : peeked;
      used = (window?.used ?? 0) + 1;
    } else {
      const hit = windows.hit(key, now);
      window = hit instanceof Promise ? await hit : hit;
      used = window.used;
    }
    const headers = headersOf(options.requests, window, used);
    if (used > options.requests) {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return refuse(c);
    }
    await next();
    if (options.countSuccessOnly) {
      if (c.res.status < 400) {
        // The answer is made: a shared counter that cannot be reached now costs one count,
        // never the caller's success.
        await Promise.resolve(windows.hit(key, clock.now().getTime())).catch(() => {});
      }
      return;
    }
    announce(c, headers);
  };
  return Object.assign(handler, { trackedKeys: () => windows.size });
}

/**
 * Sets a limit's headers on an answer, unless another limit (checked after this one) is as
 * close or closer to refusing: its headers then stand, as they tell the caller the most about
 * when it will be refused.
 */
function announce(c: Context<HttpEnv>, headers: RateLimitHeaders): void {
  const inner = responseHeader(c, "X-RateLimit-Remaining");
  if (inner !== null && Number(inner) <= Number(headers["X-RateLimit-Remaining"])) return;
  setResponseHeaders(c, headers);
}

/**
 * Several limits on the same requests, checked in turn exactly as `rateLimit` middlewares one
 * after the other would be (a request one limit refuses is not counted by the limits after it,
 * and the headers are the same). Where the counters are shared (PostgreSQL), one request's counts
 * for all of them are one storage call (Coordination.countInTurn) instead of one per limit.
 * Success-only limits are not for this (they count after the answer). The middlewares to use,
 * in order: the limits themselves where counters are in memory, else the one that counts all.
 */
export function rateLimitsInTurn(
  list: readonly RateLimitOptions[],
  ctx: Pick<ServiceContext, "clock" | "storage">,
): { handlers: MiddlewareHandler<HttpEnv>[]; trackedKeys(): number } {
  const { clock } = ctx;
  const { coordination } = ctx.storage;
  if (list.some((options) => options.countSuccessOnly)) {
    throw new Error("A success-only limit cannot be counted in turn with others");
  }
  if (coordination.exclusive) return limitsInMemory(list, clock);

  const handler: MiddlewareHandler<HttpEnv> = async (c, next) => {
    const applying: { options: RateLimitOptions; key: string }[] = [];
    for (const options of list) {
      // No await (a microtask) for a key known at once, as most are.
      const found = options.key(c);
      const key = found instanceof Promise ? await found : found;
      if (key !== null) applying.push({ options, key });
    }
    if (applying.length === 0) return next();
    const hits = applying.map(({ options, key }) => ({
      key: sharedKey(options.name, key),
      amount: 1,
      windowMs: options.windowSeconds * 1000,
      limit: options.requests,
      // Shared counters may hand out units of the window they counted ahead (ADR 0042).
      reservable: true,
    }));
    const now = clock.now().getTime();
    // Units this process holds answer at once, without a promise (ADR 0054); else one statement.
    const windows =
      coordination.countHeld?.(hits, now) ?? (await coordination.countInTurn(hits, now));
    const headers = windows.map((w, i) =>
      headersOf(applying[i]?.options.requests ?? 0, asWindow(w), w.used),
    );
    for (const [i, w] of windows.entries()) {
      const { options } = applying[i] as (typeof applying)[number];
      if (w.used <= options.requests) continue;
      for (const [name, value] of Object.entries(headers[i] as RateLimitHeaders)) {
        c.header(name, value);
      }
      return (options.refuse ?? refuseWithJson)(c);
    }
    await next();
    for (let i = headers.length - 1; i >= 0; i--) announce(c, headers[i] as RateLimitHeaders);
  };
  // Nothing is held in this process's memory.
  return { handlers: [handler], trackedKeys: () => 0 };
}

/**
 * rateLimitsInTurn where the counters are in this process's memory: one middleware counting each
 * limit in turn (every request of the API passes here; one middleware instead of one per limit
 * is one dispatch, one await and one set of headers less), with the same counts, refusals and
 * headers as the limits nested: the limit closest to refusing announces itself, the later one
 * on a tie, as an inner limit's headers stand over an outer one's.
 */
function limitsInMemory(
  list: readonly RateLimitOptions[],
  clock: ServiceContext["clock"],
): { handlers: MiddlewareHandler<HttpEnv>[]; trackedKeys(): number } {
  const limits = list.map((options) => ({
    options,
    windows: new FixedWindows(options.windowSeconds, options.maxKeys ?? DEFAULT_MAX_TRACKED_KEYS),
  }));
  const handler: MiddlewareHandler<HttpEnv> = async (c, next) => {
    const now = clock.now().getTime();
    // `used` as counted now: the window counts on while the handler runs.
    let closest: { requests: number; window: Window; used: number } | undefined;
    for (const { options, windows } of limits) {
      const found = options.key(c);
      const key = found instanceof Promise ? await found : found;
      if (key === null) continue;
      const window = windows.hit(key, now);
      if (window.used > options.requests) {
        const headers = headersOf(options.requests, window, window.used);
        for (const [name, value] of Object.entries(headers)) c.header(name, value);
        return (options.refuse ?? refuseWithJson)(c);
      }
      const used = window.used;
      if (closest === undefined || options.requests - used <= closest.requests - closest.used) {
        closest = { requests: options.requests, window, used };
      }
    }
    await next();
    if (closest) announce(c, headersOf(closest.requests, closest.window, closest.used));
  };
  return {
    handlers: [handler],
    trackedKeys: () => limits.reduce((n, { windows }) => n + windows.size, 0),
  };
}
