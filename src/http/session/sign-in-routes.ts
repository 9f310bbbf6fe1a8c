// GET/POST /auth/sign_in: the web session's sign-in (password, throttled like the OAuth sign-in
// on the same counters), and POST /auth/sign_out. The sign-in form carries the /auth pages'
// CSRF cookie token; sign-out carries the session-bound token of the signed-in pages.

import type { Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import { signUpsOpen } from "../../services/accounts/sign-up.ts";
import { authenticatePassword } from "../../services/auth/authenticate-password.ts";
import type { RouteModule } from "../app.ts";
import { checkedFormParams } from "../auth/checked-form.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { errorPage } from "../oauth/authorize-pages.ts";
import { csrfKey, csrfTokenMatches, ensureCsrfCookie, issueCsrfToken } from "../oauth/csrf.ts";
import { htmlResponse } from "../oauth/html.ts";
import { signInThrottles } from "../oauth/throttles.ts";
import { type Params, readParams } from "../params.ts";
import { signInPage } from "./pages.ts";
import {
  currentSession,
  SESSION_COOKIE,
  safeReturnPath,
  signInBrowser,
  signInRefusal,
  signOutBrowser,
} from "./session.ts";

const SIGN_IN_FAILED = "Invalid email or password.";
const HOME = "/settings";

function text(params: Params, key: string): string {
  const value = params[key];
  return typeof value === "string" ? value : "";
}

export const registerSessionRoutes: RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps) => {
  const { ctx } = deps;
  const secure = ctx.settings.publicUrl.startsWith("https:");

  async function showForm(
    c: Context<HttpEnv>,
    status: 200 | 401 | 403,
    form: { login: string; returnTo: string | null; error: string | null },
  ): Promise<Response> {
    const cookie = ensureCsrfCookie(c, secure, "/auth");
    return htmlResponse(
      c,
      status,
      signInPage({
        domain: ctx.settings.domain,
        csrf: issueCsrfToken(await csrfKey(ctx), cookie, ctx.clock.now()),
        ...form,
        signUp: signUpsOpen(ctx),
        forgotPassword: ctx.mailer !== undefined,
      }),
    );
  }

  app.get("/auth/sign_in", async (c) => {
    const returnTo = safeReturnPath(c.req.query("return_to"));
    if (await currentSession(c, ctx)) return c.redirect(returnTo ?? HOME, 303);
    return showForm(c, 200, { login: "", returnTo, error: null });
  });

  app.post("/auth/sign_in", ...signInThrottles(deps), async (c) => {
    const params = await checkedFormParams(c, ctx);
    if (params instanceof Response) return params;
    const login = text(params, "login");
    const password = text(params, "password");
    const returnTo = safeReturnPath(text(params, "return_to"));
    const signedIn =
      login.trim() !== "" && password !== ""
        ? await authenticatePassword(ctx, { login, password })
        : null;
    if (!signedIn) return showForm(c, 401, { login, returnTo, error: SIGN_IN_FAILED });
    const refusal = signInRefusal(signedIn.user);
    if (refusal) return showForm(c, 403, { login, returnTo, error: refusal });
    await signInBrowser(c, deps, signedIn.account.id);
    c.header("Cache-Control", "no-store");
    return c.redirect(returnTo ?? HOME, 303);
  });

  app.post("/auth/sign_out", async (c) => {
    const signedIn = await currentSession(c, ctx);
    if (signedIn) {
      let params: Params;
      try {
        params = await readParams(c);
      } catch {
        params = {};
      }
      const key = await csrfKey(ctx);
      if (
        !csrfTokenMatches(key, signedIn.session.handle, params.authenticity_token, ctx.clock.now())
      ) {
        return htmlResponse(
          c,
          403,
          errorPage("The form has expired", "Go back, reload the page and sign out again."),
        );
      }
    }
    if (signedIn || getCookie(c, SESSION_COOKIE)) await signOutBrowser(c, deps);
    c.header("Cache-Control", "no-store");
    return c.redirect("/auth/sign_in", 303);
  });
};
