// Several middlewares registered as one. Hono dispatches each registered middleware through an
// async step of its own (~0.2 µs each, on every request they match); the checks every request
// passes first (the client address, IP blocks, body limits, inbox limits, the federation detour)
// are five of them, and for a read of the client API from an address no block names, all but
// the first only call next(). So they run as one middleware: for the requests the caller proves
// every one of them would let straight through, the first only, then next(); for the others,
// each in turn with Hono's own rules between them (below), so their answers do not change.

import type { Context, ErrorHandler, MiddlewareHandler, Next } from "hono";
import type { HttpEnv } from "../env.ts";

export interface InTurnOptions {
  /** Work done first on every request, before any of the middlewares. */
  first?: (c: Context<HttpEnv>) => void;
  /** The middlewares, in the order Hono would have run them. */
  rest: readonly MiddlewareHandler<HttpEnv>[];
  /** True only when every one of `rest` would do nothing but call next() for this request. */
  passesAll: (c: Context<HttpEnv>) => boolean;
  /** The app's error handler (Hono answers a middleware's error with it where it is thrown). */
  onError: ErrorHandler<HttpEnv>;
}

export function inTurn(options: InTurnOptions): MiddlewareHandler<HttpEnv> {
  const { first, rest, passesAll, onError } = options;
  return (c, next) => {
    first?.(c);
    if (passesAll(c)) return next();
    return runInTurn(rest, onError, c, next);
  };
}

/**
 * As Hono's dispatch does for registered middlewares: an error a middleware throws is answered
 * by the error handler right there, so the middlewares before it see that answer as the result
 * of their next(); a value a middleware returns becomes the response unless one is final.
 */
function runInTurn(
  list: readonly MiddlewareHandler<HttpEnv>[],
  onError: ErrorHandler<HttpEnv>,
  c: Context<HttpEnv>,
  next: Next,
): Promise<void> {
  const at = async (i: number): Promise<void> => {
    const middleware = list[i];
    if (middleware === undefined) return next();
    // What the middleware returned: a Response, or what its next() gave (Hono's gives the context).
    let res: unknown;
    let failed = false;
    try {
      res = await middleware(c, () => at(i + 1));
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      res = await onError(error, c);
      failed = true;
    }
    if (res && (!c.finalized || failed)) c.res = res as Response;
  };
  return at(0);
}
