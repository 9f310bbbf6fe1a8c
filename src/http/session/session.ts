// The browser session of the web pages: a `wren_session` cookie (HttpOnly, SameSite=Lax, Secure
// on https, for the whole site) holding the secret of services/auth/web-sessions.ts. Pages that
// need a signed-in user put `requireSession(deps)` in front: it gives them `c.get("signedIn")`
// (account, user, role) and, for every method but GET and HEAD, reads the form once into
// `c.get("form")` after checking its CSRF token (bound to the session), so no form of a
// signed-in page can be posted from another site. A disabled, unconfirmed or unapproved user is
// signed out, as Mastodon lets none of them in.

import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Account } from "../../domain/account.ts";
import { AppError } from "../../domain/errors.ts";
import { isApproved, isConfirmed, type Role, type User } from "../../domain/user.ts";
import {
  endWebSession,
  findWebSession,
  startWebSession,
  type WebSession,
} from "../../services/auth/web-sessions.ts";
import type { ServiceContext } from "../../services/context.ts";
import { FORM_EXPIRED } from "../auth/checked-form.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { errorPage } from "../oauth/authorize-pages.ts";
import { csrfKey, csrfTokenMatches, issueCsrfToken } from "../oauth/csrf.ts";
import { htmlResponse } from "../oauth/html.ts";
import { readParams } from "../params.ts";

export const SESSION_COOKIE = "wren_session";

export interface SignedIn {
  account: Account;
  user: User;
  role: Role;
  session: WebSession;
}

const secureOf = (ctx: ServiceContext) => ctx.settings.publicUrl.startsWith("https:");

/** Why a user may not be signed in, in Mastodon's words; null when they may. */
export function signInRefusal(user: User): string | null {
  if (user.disabled) return "Your account is disabled.";
  if (!isConfirmed(user)) return "Your login is missing a confirmed e-mail address.";
  if (!isApproved(user)) return "Your login is currently pending approval.";
  return null;
}

/**
 * Starts a session for the account and hands its cookie to the browser. A session the browser
 * held before ends: each sign-in gets a fresh secret (no session fixation).
 */
export async function signInBrowser(c: Context<HttpEnv>, deps: HttpDeps, accountId: string) {
  const previous = getCookie(c, SESSION_COOKIE);
  if (previous) await endWebSession(deps.ctx, previous);
  const { cookie, expiresAt } = await startWebSession(
    deps.ctx,
    accountId,
    c.req.header("user-agent") ?? "",
  );
  setCookie(c, SESSION_COOKIE, cookie, {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: secureOf(deps.ctx),
    expires: expiresAt,
  });
}

/** Ends the browser's session (if any) and removes its cookie. */
export async function signOutBrowser(c: Context<HttpEnv>, deps: HttpDeps): Promise<void> {
  const cookie = getCookie(c, SESSION_COOKIE);
  if (cookie) await endWebSession(deps.ctx, cookie);
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secureOf(deps.ctx) });
}

/** The signed-in user of the request, or null (no cookie, ended, expired or refused). */
export async function currentSession(
  c: Context<HttpEnv>,
  ctx: ServiceContext,
): Promise<SignedIn | null> {
  const cookie = getCookie(c, SESSION_COOKIE);
  const session = cookie ? await findWebSession(ctx, cookie) : undefined;
  if (!session) return null;
  const [user, account] = await Promise.all([
    ctx.storage.users.get(session.accountId),
    ctx.storage.accounts.get(session.accountId),
  ]);
  if (!user || !account || signInRefusal(user) !== null) return null;
  return { account, user, role: user.role, session };
}

/** A CSRF token for the forms of a signed-in page. */
export async function sessionCsrf(ctx: ServiceContext, signedIn: SignedIn): Promise<string> {
  return issueCsrfToken(await csrfKey(ctx), signedIn.session.handle, ctx.clock.now());
}

/** Where the sign-in page sends the browser back to: a local path only. */
export function safeReturnPath(value: string | undefined): string | null {
  if (!value?.startsWith("/") || value.startsWith("//") || value.includes("\\")) {
    return null;
  }
  return value;
}

/**
 * Lets only a signed-in browser through. GET and HEAD without a session go to the sign-in page
 * (and back here after it); other methods without one get a 401 page, and with a bad or missing
 * CSRF token a 403 page.
 */
export function requireSession(deps: HttpDeps): MiddlewareHandler<HttpEnv> {
  const { ctx } = deps;
  return async (c, next) => {
    const signedIn = await currentSession(c, ctx);
    const reading = c.req.method === "GET" || c.req.method === "HEAD";
    if (!signedIn) {
      if (getCookie(c, SESSION_COOKIE)) {
        deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secureOf(ctx) });
      }
      if (reading) {
        const back = new URL(c.req.url);
        const target = `/auth/sign_in?return_to=${encodeURIComponent(back.pathname + back.search)}`;
        c.header("Cache-Control", "no-store");
        return c.redirect(target, 303);
      }
      return htmlResponse(
        c,
        401,
        errorPage("You are signed out", "Sign in again, then repeat what you were doing."),
      );
    }
    c.set("signedIn", signedIn);
    if (!reading) {
      let form: Record<string, unknown>;
      try {
        form = await readParams(c);
      } catch (err) {
        if (err instanceof AppError && err.status < 500) {
          return htmlResponse(
            c,
            err.status === 413 ? 413 : 400,
            errorPage("An error has occurred", err.message || "The form could not be read."),
          );
        }
        throw err;
      }
      const key = await csrfKey(ctx);
      if (
        !csrfTokenMatches(key, signedIn.session.handle, form.authenticity_token, ctx.clock.now())
      ) {
        return htmlResponse(c, 403, FORM_EXPIRED);
      }
      c.set("form", form);
    }
    await next();
  };
}
