// Login throttling, after Mastodon's rack-attack rules: password sign-ins are limited per client
// address (25 per 5 minutes) and per account from any address (25 per hour), so a password
// cannot be guessed without bound from one machine or from many. The token endpoint is limited
// per address too. A refused sign-in is a page (the person is in a browser); a refused token
// request is Mastodon's JSON 429.
//
// The per-account count is one counter for both ways of trying a password, the sign-in page and
// the password grant, and for every name of the account (its email address and its username in
// any spelling): the login is resolved to the account before counting. A login that names no
// account is counted by the name as given (and, like every attempt, by client address).
// Counters are in process memory, like every rate limit here (see middleware/rate-limit.ts).

import type { Context, MiddlewareHandler } from "hono";
import { tooManyRequests } from "../../domain/errors.ts";
import { findUserByLogin } from "../../services/auth/authenticate-password.ts";
import type { HttpDeps, HttpEnv, RateLimitSetting } from "../env.ts";
import { byAddress, rateLimit } from "../middleware/rate-limit.ts";
import { type Params, readParams } from "../params.ts";
import { errorPage } from "./authorize-pages.ts";
import { htmlResponse } from "./html.ts";

/** `Alice`, `@alice` and `alice@our.domain` are one login; an email address is its own. */
export function loginKey(login: string, domain: string): string | null {
  let key = login.trim().toLowerCase().replace(/^@/, "");
  const local = `@${domain.toLowerCase()}`;
  if (key.endsWith(local)) key = key.slice(0, -local.length);
  return key === "" ? null : key;
}

/** The per-account counter a login is counted on: its account's, else the name's own. */
async function loginCounter(deps: HttpDeps, login: string): Promise<string | null> {
  const trimmed = login.trim();
  if (trimmed === "") return null;
  const user = await findUserByLogin(deps.ctx, trimmed);
  if (user) return `account:${user.accountId}`;
  const key = loginKey(trimmed, deps.ctx.settings.domain);
  return key === null ? null : `login:${key}`;
}

async function paramsOrNull(c: Context<HttpEnv>): Promise<Params | null> {
  try {
    return await readParams(c);
  } catch {
    // Unreadable bodies are the handler's to answer (with its 400); nothing to count.
    return null;
  }
}

function refuseSignIn(c: Context<HttpEnv>): Response {
  return htmlResponse(
    c,
    429,
    errorPage(
      "Too many sign-in attempts",
      "There have been too many attempts to sign in. Wait a few minutes, then try again.",
    ),
  );
}

/** A login limit's setting, with the memory cap every in-memory limit gets. */
function limitOf(deps: HttpDeps, setting: RateLimitSetting) {
  return { ...setting, maxKeys: deps.limits.maxTrackedKeys };
}

/** Where a password attempt came in: the sign-in form or the token endpoint's password grant. */
type Door = "sign-in" | "token";

/** The login a request tries a password for, or null when it tries none. */
function attemptedLogin(door: Door, params: Params): string | null {
  if (door === "token") {
    return params.grant_type === "password" && typeof params.username === "string"
      ? params.username
      : null;
  }
  // Denying signs nobody in, so it guesses nothing.
  if (params.decision === "deny" || typeof params.login !== "string") return null;
  return params.login;
}

interface AccountThrottle {
  sharedBy: (door: Door) => MiddlewareHandler<HttpEnv>;
}

const accountThrottles = new WeakMap<HttpDeps, AccountThrottle>();

/** One per-account limiter per app (per `deps`), whichever door a request comes through. */
function accountThrottle(deps: HttpDeps): AccountThrottle {
  const existing = accountThrottles.get(deps);
  if (existing) return existing;
  const doors = new WeakMap<Context<HttpEnv>, Door>();
  const limiter = rateLimit(
    {
      name: "login-account",
      ...limitOf(deps, deps.limits.loginAccountRateLimit),
      key: async (c) => {
        const params = await paramsOrNull(c);
        const login = params && attemptedLogin(doors.get(c) ?? "sign-in", params);
        return login === null ? null : loginCounter(deps, login);
      },
      refuse: (c) => {
        if (doors.get(c) === "token") throw tooManyRequests("Too many requests");
        return refuseSignIn(c);
      },
    },
    deps.ctx,
  );
  const throttle: AccountThrottle = {
    sharedBy: (door) => (c, next) => {
      doors.set(c, door);
      return limiter(c, next);
    },
  };
  accountThrottles.set(deps, throttle);
  return throttle;
}

/** For POST /oauth/authorize: the per-address limit, then the per-account one. */
export function signInThrottles(
  deps: HttpDeps,
): [MiddlewareHandler<HttpEnv>, MiddlewareHandler<HttpEnv>] {
  const perAddress = rateLimit(
    {
      name: "sign-in-address",
      ...limitOf(deps, deps.limits.loginRateLimit),
      key: byAddress,
      refuse: refuseSignIn,
    },
    deps.ctx,
  );
  return [perAddress, accountThrottle(deps).sharedBy("sign-in")];
}

/**
 * For POST /oauth/token: every request per address, answered in JSON; then password-grant
 * attempts per account, on the same counters as the sign-in page.
 */
export function tokenThrottles(
  deps: HttpDeps,
): [MiddlewareHandler<HttpEnv>, MiddlewareHandler<HttpEnv>] {
  const perAddress = rateLimit(
    { name: "token-address", ...limitOf(deps, deps.limits.loginRateLimit), key: byAddress },
    deps.ctx,
  );
  return [perAddress, accountThrottle(deps).sharedBy("token")];
}

/**
 * For the account forms under /auth (sign-up, password reset): per client address, on the
 * sign-in page's limit, so nobody makes accounts or sends mails without bound from one machine.
 */
export function formThrottle(deps: HttpDeps, name: string): MiddlewareHandler<HttpEnv> {
  return rateLimit(
    {
      name,
      ...limitOf(deps, deps.limits.loginRateLimit),
      key: byAddress,
      refuse: (c) =>
        htmlResponse(
          c,
          429,
          errorPage(
            "Too many attempts",
            "There have been too many attempts. Wait a few minutes, then try again.",
          ),
        ),
    },
    deps.ctx,
  );
}

const signUpThrottles = new WeakMap<HttpDeps, MiddlewareHandler<HttpEnv>>();

/**
 * For sign-ups, by the API (POST /api/v1/accounts, answered in JSON) and by the web page: one
 * count per client address for both, on the sign-in page's limit (Mastodon's rack-attack allows
 * 25 sign-up attempts per address in 5 minutes, the default here).
 */
export function signUpThrottle(deps: HttpDeps): MiddlewareHandler<HttpEnv> {
  const existing = signUpThrottles.get(deps);
  if (existing) return existing;
  const limiter = rateLimit(
    {
      name: "sign-up-address",
      ...limitOf(deps, deps.limits.loginRateLimit),
      key: byAddress,
      refuse: (c) => {
        if (c.req.path.startsWith("/api/")) throw tooManyRequests("Too many requests");
        return htmlResponse(
          c,
          429,
          errorPage(
            "Too many attempts",
            "There have been too many sign-ups from your address. Wait a few minutes, then try again.",
          ),
        );
      },
    },
    deps.ctx,
  );
  signUpThrottles.set(deps, limiter);
  return limiter;
}
