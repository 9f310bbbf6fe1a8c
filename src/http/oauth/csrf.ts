// CSRF protection of POST /oauth/authorize: a double-submit cookie bound to a signed form token.
// GET sets a random cookie and puts `issued.HMAC(key, cookie.issued)` in the form; POST needs
// both, matching and fresh. Without the key a forged page cannot mint a token for the victim's
// cookie, and without the cookie a stolen token is useless. The key is one instance-wide secret
// kept in storage (services/auth/shared-secret.ts), so a form issued by one process is accepted
// by any other behind the same origin, and across restarts.
//
// Signed-in pages (settings, sign-out) bind the same token to the browser session instead of a
// cookie of its own (`issueCsrfToken(key, session.handle, now)`, `csrfTokenMatches`): the session's
// stored hash is as secret to a forger as the cookie.

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { sharedSecret } from "../../services/auth/shared-secret.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { HttpEnv } from "../env.ts";

const COOKIE = "wren_oauth_csrf";
const COOKIE_VALUE = /^[A-Za-z0-9_-]{32,64}$/;
const MAX_AGE_MS = 2 * 60 * 60 * 1000;

/** The key that signs the form tokens, shared by every process of the instance. */
export function csrfKey(ctx: ServiceContext): Promise<Buffer> {
  return sharedSecret(ctx, "oauth-csrf");
}

function mac(key: Buffer, cookie: string, issued: string): string {
  return createHmac("sha256", key).update(`${cookie}.${issued}`).digest("base64url");
}

/**
 * The browser's CSRF cookie, set now if missing. `path`: where the forms post (the OAuth pages,
 * or the account pages under /auth).
 */
export function ensureCsrfCookie(c: Context<HttpEnv>, secure: boolean, path = "/oauth"): string {
  const existing = getCookie(c, COOKIE);
  if (existing && COOKIE_VALUE.test(existing)) return existing;
  const value = randomBytes(32).toString("base64url");
  setCookie(c, COOKIE, value, { path, httpOnly: true, sameSite: "Lax", secure });
  return value;
}

export function issueCsrfToken(key: Buffer, cookie: string, now: Date): string {
  const issued = now.getTime().toString(36);
  return `${issued}.${mac(key, cookie, issued)}`;
}

export function csrfTokenValid(
  c: Context<HttpEnv>,
  key: Buffer,
  token: unknown,
  now: Date,
): boolean {
  const cookie = getCookie(c, COOKIE);
  if (!cookie || !COOKIE_VALUE.test(cookie)) return false;
  return csrfTokenMatches(key, cookie, token, now);
}

/** Whether `token` was issued for `bound` (a CSRF cookie or a session handle) and is fresh. */
export function csrfTokenMatches(key: Buffer, bound: string, token: unknown, now: Date): boolean {
  if (typeof token !== "string") return false;
  const [issued, signature, extra] = token.split(".");
  if (!issued || !signature || extra !== undefined) return false;
  const age = now.getTime() - Number.parseInt(issued, 36);
  if (!Number.isFinite(age) || age < 0 || age > MAX_AGE_MS) return false;
  const expected = Buffer.from(mac(key, bound, issued));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
