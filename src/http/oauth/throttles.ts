// Login throttling, after Mastodon's rack-attack rules: password sign-ins are limited per client
// address (25 per 5 minutes) and per login name from any address (25 per hour), so a password
// cannot be guessed without bound from one machine or from many. The token endpoint is limited
// per address too. A refused sign-in is a page (the person is in a browser); a refused token
// request is Mastodon's JSON 429.

import type { Context, MiddlewareHandler } from "hono";
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

async function paramsOrNull(c: Context<HttpEnv>): Promise<Params | null> {
  try {
    return await readParams(c);
  } catch {
    // Unreadable bodies are the handler's to answer (with its 400 page); nothing to count.
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

/** For POST /oauth/authorize: the per-address limit, then the per-login one. */
export function signInThrottles(
  deps: HttpDeps,
): [MiddlewareHandler<HttpEnv>, MiddlewareHandler<HttpEnv>] {
  const { clock, settings } = deps.ctx;
  const perAddress = rateLimit(
    { ...limitOf(deps, deps.limits.loginRateLimit), key: byAddress, refuse: refuseSignIn },
    clock,
  );
  const perLogin = rateLimit(
    {
      ...limitOf(deps, deps.limits.loginAccountRateLimit),
      key: async (c) => {
        const params = await paramsOrNull(c);
        // Denying signs nobody in, so it guesses nothing.
        if (!params || params.decision === "deny" || typeof params.login !== "string") return null;
        const login = loginKey(params.login, settings.domain);
        return login === null ? null : `login:${login}`;
      },
      refuse: refuseSignIn,
    },
    clock,
  );
  return [perAddress, perLogin];
}

/** For POST /oauth/token: per address, answered in JSON. */
export function tokenThrottle(deps: HttpDeps): MiddlewareHandler<HttpEnv> {
  return rateLimit(
    { ...limitOf(deps, deps.limits.loginRateLimit), key: byAddress },
    deps.ctx.clock,
  );
}
