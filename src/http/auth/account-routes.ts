// The account pages for browsers: sign-up (/auth/sign_up, and /invite/CODE leading there), the
// email confirmation link (/auth/confirmation), and the password reset (/auth/password/new asks
// for the mail, /auth/password/edit is its link, POST /auth/password sets the password). Forms
// carry the CSRF token of the OAuth pages (a cookie scoped to /auth) and are throttled per
// client address. The rules are the services'; these handlers only turn them into pages.

import type { Context, Hono } from "hono";
import { AppError } from "../../domain/errors.ts";
import { CONFIRMATION_LINK_INVALID, confirmEmail } from "../../services/accounts/confirm-email.ts";
import { usableInvite } from "../../services/accounts/invites.ts";
import {
  RESET_LINK_INVALID,
  requestPasswordReset,
  resetPasswordWithToken,
  resetTokenValid,
} from "../../services/accounts/password-reset-mail.ts";
import { approvalRequired, registerAccount, signUpsOpen } from "../../services/accounts/sign-up.ts";
import { currentRules } from "../../services/instance/rules.ts";
import type { RouteModule } from "../app.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { requestAddress } from "../middleware/client-address.ts";
import { errorPage } from "../oauth/authorize-pages.ts";
import { csrfKey, ensureCsrfCookie, issueCsrfToken } from "../oauth/csrf.ts";
import { htmlResponse } from "../oauth/html.ts";
import { formThrottle, signUpThrottle } from "../oauth/throttles.ts";
import type { Params } from "../params.ts";
import { checkedFormParams } from "./checked-form.ts";
import {
  forgotPasswordPage,
  messagePage,
  newPasswordPage,
  signedUpPage,
  signUpFormPage,
} from "./pages.ts";

function text(params: Params, key: string): string {
  const value = params[key];
  return typeof value === "string" ? value : "";
}

/** The field messages of a validation failure (its `details`), e.g. "Username is reserved". */
function fieldErrors(error: AppError): Record<string, string> {
  const details = (error.extra?.details ?? {}) as Record<string, { description: string }[]>;
  const errors: Record<string, string> = {};
  for (const [field, problems] of Object.entries(details)) {
    const label = field.charAt(0).toUpperCase() + field.slice(1);
    errors[field] = problems.map((p) => `${label} ${p.description}.`).join(" ");
  }
  return errors;
}

export const registerAccountPageRoutes: RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps) => {
  const { ctx } = deps;
  const secure = ctx.settings.publicUrl.startsWith("https:");
  // One limiter for both steps of a reset: asking for mails and trying links.
  const resetThrottle = formThrottle(deps, "password-reset-address");

  async function csrfFor(c: Context<HttpEnv>): Promise<string> {
    const cookie = ensureCsrfCookie(c, secure, "/auth");
    return issueCsrfToken(await csrfKey(ctx), cookie, ctx.clock.now());
  }

  /** The form's params when its CSRF token holds; else the page to answer. */
  const formParams = (c: Context<HttpEnv>) => checkedFormParams(c, ctx);

  async function showSignUp(
    c: Context<HttpEnv>,
    status: 200 | 403 | 422,
    form: {
      inviteCode: string | null;
      values?: { username: string; email: string; reason: string };
      errors?: Record<string, string>;
      error?: string | null;
    },
  ): Promise<Response> {
    const invite = form.inviteCode ? await usableInvite(ctx, form.inviteCode) : undefined;
    if (!invite && !signUpsOpen(ctx)) {
      const message = form.inviteCode
        ? "This invite link is invalid, used up or expired."
        : "This server is not taking new accounts.";
      return htmlResponse(c, 403, errorPage("Sign-ups are closed", message));
    }
    const rules = (await currentRules(ctx)).map((r) => r.text);
    return htmlResponse(
      c,
      status,
      signUpFormPage({
        title: ctx.settings.title,
        domain: ctx.settings.domain,
        rules,
        askReason: approvalRequired(ctx) && !invite,
        inviteCode: invite ? invite.code : null,
        csrf: await csrfFor(c),
        values: form.values ?? { username: "", email: "", reason: "" },
        errors: form.errors ?? {},
        error: form.error ?? null,
      }),
    );
  }

  app.get("/invite/:code", (c) =>
    c.redirect(`/auth/sign_up?invite_code=${encodeURIComponent(c.req.param("code"))}`, 302),
  );

  app.get("/auth/sign_up", (c) =>
    showSignUp(c, 200, { inviteCode: c.req.query("invite_code") || null }),
  );

  app.post("/auth/sign_up", signUpThrottle(deps), async (c) => {
    const params = await formParams(c);
    if (params instanceof Response) return params;
    const inviteCode = text(params, "invite_code") || null;
    const values = {
      username: text(params, "username"),
      email: text(params, "email"),
      reason: text(params, "reason"),
    };
    try {
      const { account, user } = await registerAccount(
        ctx,
        {
          ...values,
          password: text(params, "password"),
          agreement: text(params, "agreement") !== "",
          inviteCode: inviteCode ?? undefined,
          ip: requestAddress(c),
        },
        null,
      );
      return htmlResponse(
        c,
        200,
        signedUpPage({
          title: ctx.settings.title,
          username: account.username,
          confirm: user.confirmed === false,
          approval: user.approved === false,
        }),
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.status === 422) {
        return showSignUp(c, 422, { inviteCode, values, errors: fieldErrors(err) });
      }
      if (err.status === 403) return showSignUp(c, 403, { inviteCode, values, error: err.message });
      throw err;
    }
  });

  app.get("/auth/confirmation", async (c) => {
    try {
      await confirmEmail(ctx, c.req.query("confirmation_token") ?? "");
    } catch (err) {
      if (err instanceof AppError && err.status === 404) {
        return htmlResponse(c, 404, errorPage("Confirmation failed", CONFIRMATION_LINK_INVALID));
      }
      throw err;
    }
    return htmlResponse(
      c,
      200,
      messagePage(
        "Email address confirmed",
        "Your email address is confirmed. You can sign in from your app.",
      ),
    );
  });

  app.get("/auth/password/new", async (c) => {
    if (!ctx.mailer) {
      return htmlResponse(
        c,
        404,
        errorPage(
          "Password reset",
          "Password reset by email is not available on this server: ask its operator to set a new password.",
        ),
      );
    }
    return htmlResponse(c, 200, forgotPasswordPage({ csrf: await csrfFor(c), email: "" }));
  });

  app.post("/auth/password/new", resetThrottle, async (c) => {
    const params = await formParams(c);
    if (params instanceof Response) return params;
    await requestPasswordReset(ctx, text(params, "email"));
    // The same answer for every address: the page does not tell who has an account.
    return htmlResponse(
      c,
      200,
      messagePage(
        "Check your email",
        "If an account uses this address, a link to choose a new password is on its way.",
      ),
    );
  });

  app.get("/auth/password/edit", async (c) => {
    const token = c.req.query("reset_password_token") ?? "";
    if (!(await resetTokenValid(ctx, token))) {
      return htmlResponse(c, 404, errorPage("Password reset failed", RESET_LINK_INVALID));
    }
    return htmlResponse(
      c,
      200,
      newPasswordPage({ csrf: await csrfFor(c), token, errors: {}, error: null }),
    );
  });

  app.post("/auth/password", resetThrottle, async (c) => {
    const params = await formParams(c);
    if (params instanceof Response) return params;
    const token = text(params, "reset_password_token");
    try {
      await resetPasswordWithToken(ctx, token, text(params, "password"));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.status === 422) {
        return htmlResponse(
          c,
          422,
          newPasswordPage({ csrf: await csrfFor(c), token, errors: fieldErrors(err), error: null }),
        );
      }
      if (err.status === 404) {
        return htmlResponse(c, 404, errorPage("Password reset failed", RESET_LINK_INVALID));
      }
      throw err;
    }
    return htmlResponse(
      c,
      200,
      messagePage(
        "Password changed",
        "Your password is changed and every app was signed out. Sign in again with the new password.",
      ),
    );
  });
};
