// Authentication and OAuth scope enforcement, declared next to each route:
//   app.get("/api/v1/accounts/verify_credentials",
//     access({ scopes: ["profile", "read:accounts"], user: true }), handler)
// Mastodon's answers: no or bad token → 401; a token without an admitting scope → 403; an app
// token (client_credentials) where a user is needed → 422.

import type { Context, MiddlewareHandler } from "hono";
import { AppError, forbidden, unauthorized } from "../../domain/errors.ts";
import { scopesAdmit } from "../../domain/scopes.ts";
import { isApproved, isConfirmed } from "../../domain/user.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { HttpEnv, Viewer } from "../env.ts";
import { bearerOf, verifiedCaller } from "./caller.ts";

export interface AccessRule {
  /** Scopes that admit the endpoint; any one suffices. Empty: any valid token. */
  scopes?: readonly string[];
  /** Needs a token bound to a user (not a client_credentials token). */
  user?: boolean;
  /** A token is optional: without one the handler runs as an anonymous viewer. */
  optional?: boolean;
}

/** Builds the `access(rule)` middleware factory bound to the service context. */
export function accessControl(ctx: ServiceContext) {
  return function access(rule: AccessRule = {}): MiddlewareHandler<HttpEnv> {
    return async (c, next) => {
      const bearer = bearerOf(c);
      if (bearer === null) {
        if (rule.optional) return next();
        throw unauthorized("The access token is invalid");
      }
      const viewer = await verifiedCaller(c, ctx);
      if (!viewer) throw unauthorized("The access token is invalid");
      if (rule.scopes && rule.scopes.length > 0 && !scopesAdmit(viewer.token.scopes, rule.scopes)) {
        throw forbidden("This action is outside the authorized scopes");
      }
      if (rule.user && !viewer.account) {
        throw new AppError(422, "This method requires an authenticated user");
      }
      // A sign-up holds a token at once; until its address is confirmed and a moderator let it
      // in, the methods of a user refuse it, with Mastodon's words (Api::BaseController).
      if (rule.user && viewer.user && !isConfirmed(viewer.user)) {
        throw forbidden("Your login is missing a confirmed e-mail address");
      }
      if (rule.user && viewer.user && !isApproved(viewer.user)) {
        throw forbidden("Your login is currently pending approval");
      }
      c.set("viewer", viewer);
      return next();
    };
  };
}

export type Access = ReturnType<typeof accessControl>;

/** The viewer of a route declared with `user: true` (always set there). */
export function requireViewer(c: Context<HttpEnv>): Viewer & {
  account: NonNullable<Viewer["account"]>;
  user: NonNullable<Viewer["user"]>;
} {
  const viewer = c.get("viewer");
  if (!viewer?.account || !viewer.user) throw unauthorized();
  return viewer as Viewer & {
    account: NonNullable<Viewer["account"]>;
    user: NonNullable<Viewer["user"]>;
  };
}
