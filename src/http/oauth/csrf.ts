// CSRF protection of POST /oauth/authorize: a double-submit cookie bound to a signed form token.
// GET sets a random cookie and puts `issued.HMAC(key, cookie.issued)` in the form; POST needs
// both, matching and fresh. Without the key a forged page cannot mint a token for the victim's
// cookie, and without the cookie a stolen token is useless. The key is random per process, so
// forms open across a restart must be reloaded (and, with several processes behind one origin,
// sign-in needs sticky sessions until the key is shared).

import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { HttpEnv } from "../env.ts";

const KEY = randomBytes(32);
const COOKIE = "wren_oauth_csrf";
const COOKIE_VALUE = /^[A-Za-z0-9_-]{32,64}$/;
const MAX_AGE_MS = 2 * 60 * 60 * 1000;

function mac(cookie: string, issued: string): string {
  return createHmac("sha256", KEY).update(`${cookie}.${issued}`).digest("base64url");
}

/** The browser's CSRF cookie, set now if missing. */
export function ensureCsrfCookie(c: Context<HttpEnv>, secure: boolean): string {
  const existing = getCookie(c, COOKIE);
  if (existing && COOKIE_VALUE.test(existing)) return existing;
  const value = randomBytes(32).toString("base64url");
  setCookie(c, COOKIE, value, { path: "/oauth", httpOnly: true, sameSite: "Lax", secure });
  return value;
}

export function issueCsrfToken(cookie: string, now: Date): string {
  const issued = now.getTime().toString(36);
  return `${issued}.${mac(cookie, issued)}`;
}

export function csrfTokenValid(c: Context<HttpEnv>, token: unknown, now: Date): boolean {
  const cookie = getCookie(c, COOKIE);
  if (!cookie || !COOKIE_VALUE.test(cookie) || typeof token !== "string") return false;
  const [issued, signature, extra] = token.split(".");
  if (!issued || !signature || extra !== undefined) return false;
  const age = now.getTime() - Number.parseInt(issued, 36);
  if (!Number.isFinite(age) || age < 0 || age > MAX_AGE_MS) return false;
  const expected = Buffer.from(mac(cookie, issued));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
