// The posted forms of the signed-out pages (sign-in, sign-up, password reset): their params once
// the double-submit CSRF token (oauth/csrf.ts) holds, or the page that answers instead — 400 for
// a body that cannot be read, 403 for a token that is missing, forged or stale.

import type { Context } from "hono";
import { AppError } from "../../domain/errors.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { HttpEnv } from "../env.ts";
import { errorPage } from "../oauth/authorize-pages.ts";
import { csrfKey, csrfTokenValid } from "../oauth/csrf.ts";
import { htmlResponse } from "../oauth/html.ts";
import { type Params, readParams } from "../params.ts";

export const FORM_EXPIRED = errorPage(
  "The form has expired",
  "This form was not sent from this page or is too old. Go back, reload the page and try again.",
);

export async function checkedFormParams(
  c: Context<HttpEnv>,
  ctx: ServiceContext,
): Promise<Params | Response> {
  let params: Params;
  try {
    params = await readParams(c);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      return htmlResponse(
        c,
        400,
        errorPage("An error has occurred", "The form could not be read."),
      );
    }
    throw err;
  }
  if (!csrfTokenValid(c, await csrfKey(ctx), params.authenticity_token, ctx.clock.now())) {
    return htmlResponse(c, 403, FORM_EXPIRED);
  }
  return params;
}
