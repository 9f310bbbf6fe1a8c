// GET /oauth/authorize shows the sign-in and consent form; POST /oauth/authorize checks the CSRF
// token, re-checks every parameter (hidden fields are client input like any other), signs the
// person in and answers the client with a code, or with access_denied.

import type { Context, Hono } from "hono";
import { AppError } from "../../domain/errors.ts";
import { isApproved, isConfirmed } from "../../domain/user.ts";
import { signUpsOpen } from "../../services/accounts/sign-up.ts";
import { authenticatePassword } from "../../services/auth/authenticate-password.ts";
import {
  type AuthorizationParams,
  type AuthorizationRequest,
  checkAuthorizationRequest,
} from "../../services/oauth/check-authorization-request.ts";
import { createAuthorizationCode } from "../../services/oauth/create-authorization-code.ts";
import { OAUTH_DESCRIPTIONS } from "../../services/oauth/errors.ts";
import { OOB_URI } from "../../services/oauth/redirect-uris.ts";
import type { RouteModule } from "../app.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { type Params, readParams } from "../params.ts";
import { authorizeFormPage, codePage, errorPage } from "./authorize-pages.ts";
import { csrfKey, csrfTokenValid, ensureCsrfCookie, issueCsrfToken } from "./csrf.ts";
import { htmlResponse } from "./html.ts";
import { answerClient } from "./redirect.ts";
import { signInThrottles } from "./throttles.ts";

const SIGN_IN_FAILED = "Invalid email or password.";

function text(params: Params, key: string): string | undefined {
  const value = params[key];
  return typeof value === "string" ? value : undefined;
}

function authorizationParams(params: Params): AuthorizationParams {
  return {
    clientId: text(params, "client_id"),
    redirectUri: text(params, "redirect_uri"),
    responseType: text(params, "response_type"),
    scope: text(params, "scope"),
    state: text(params, "state"),
    codeChallenge: text(params, "code_challenge"),
    codeChallengeMethod: text(params, "code_challenge_method"),
    responseMode: text(params, "response_mode"),
  };
}

/** Unreadable input (bad multipart, odd keys) is a 400 page here, not a JSON body. */
async function readPageParams(c: Context<HttpEnv>): Promise<Params | Response> {
  try {
    return await readParams(c);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      return htmlResponse(
        c,
        400,
        errorPage("An error has occurred", OAUTH_DESCRIPTIONS.invalid_request),
      );
    }
    throw err;
  }
}

async function showForm(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  request: AuthorizationRequest,
  options: { status: 200 | 401; login: string; error: string | null },
): Promise<Response> {
  const secure = deps.ctx.settings.publicUrl.startsWith("https:");
  const cookie = ensureCsrfCookie(c, secure);
  const key = await csrfKey(deps.ctx);
  const hidden: Record<string, string> = {
    authenticity_token: issueCsrfToken(key, cookie, deps.ctx.clock.now()),
    client_id: request.app.clientId,
    redirect_uri: request.redirectUri,
    response_type: "code",
    scope: request.scopes.join(" "),
  };
  if (request.state !== null) hidden.state = request.state;
  if (request.codeChallenge !== null && request.codeChallengeMethod !== null) {
    hidden.code_challenge = request.codeChallenge;
    hidden.code_challenge_method = request.codeChallengeMethod;
  }
  if (request.responseMode !== "query") hidden.response_mode = request.responseMode;
  const html = authorizeFormPage({
    appName: request.app.name,
    appWebsite: request.app.website,
    domain: deps.ctx.settings.domain,
    scopes: request.scopes,
    hidden,
    login: options.login,
    error: options.error,
    signUp: signUpsOpen(deps.ctx),
    forgotPassword: deps.ctx.mailer !== undefined,
  });
  return htmlResponse(c, options.status, html);
}

/** Checks the request; answers at once unless it is valid. */
async function checkedRequest(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  params: Params,
): Promise<AuthorizationRequest | Response> {
  const check = await checkAuthorizationRequest(deps.ctx, authorizationParams(params));
  if (check.kind === "valid") return check.request;
  if (check.kind === "fatal") {
    return htmlResponse(c, 400, errorPage("An error has occurred", check.description));
  }
  return answerClient(c, check.redirectUri, check.responseMode, {
    error: check.error,
    error_description: check.description,
    state: check.state,
  });
}

export const registerAuthorizeRoutes: RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps) => {
  // `force_login` and `lang` are accepted and ignored: there is no browser session to reuse, so
  // every authorization signs in afresh, and the page is in English.
  app.get("/oauth/authorize", async (c) => {
    const params = await readPageParams(c);
    if (params instanceof Response) return params;
    const request = await checkedRequest(c, deps, params);
    if (request instanceof Response) return request;
    return showForm(c, deps, request, { status: 200, login: "", error: null });
  });

  app.post("/oauth/authorize", ...signInThrottles(deps), async (c) => {
    const params = await readPageParams(c);
    if (params instanceof Response) return params;
    const key = await csrfKey(deps.ctx);
    if (!csrfTokenValid(c, key, params.authenticity_token, deps.ctx.clock.now())) {
      return htmlResponse(
        c,
        403,
        errorPage(
          "The form has expired",
          "This form was not sent from this page or is too old. Go back to the application and start the sign-in again.",
        ),
      );
    }
    const request = await checkedRequest(c, deps, params);
    if (request instanceof Response) return request;

    if (text(params, "decision") === "deny") {
      if (request.redirectUri === OOB_URI) {
        return htmlResponse(
          c,
          200,
          errorPage("Authorization denied", OAUTH_DESCRIPTIONS.access_denied),
        );
      }
      return answerClient(c, request.redirectUri, request.responseMode, {
        error: "access_denied",
        error_description: OAUTH_DESCRIPTIONS.access_denied,
        state: request.state,
      });
    }

    const login = text(params, "login") ?? "";
    const password = text(params, "password") ?? "";
    const signedIn =
      login.trim() !== "" && password !== ""
        ? await authenticatePassword(deps.ctx, { login, password })
        : null;
    if (!signedIn) return showForm(c, deps, request, { status: 401, login, error: SIGN_IN_FAILED });
    // Mastodon lets nobody authorize an app before the address is confirmed and the account
    // approved; the words are those its API answers such an account.
    const notYet = !isConfirmed(signedIn.user)
      ? "Your login is missing a confirmed e-mail address."
      : !isApproved(signedIn.user)
        ? "Your login is currently pending approval."
        : null;
    if (notYet) return showForm(c, deps, request, { status: 401, login, error: notYet });

    const { code } = await createAuthorizationCode(deps.ctx, {
      app: request.app,
      accountId: signedIn.account.id,
      scopes: request.scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
    });
    if (request.redirectUri === OOB_URI)
      return htmlResponse(c, 200, codePage(request.app.name, code));
    return answerClient(c, request.redirectUri, request.responseMode, {
      code,
      state: request.state,
    });
  });
};
