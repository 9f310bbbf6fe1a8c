// Authentication and OAuth scope enforcement, declared next to each route:
//   app.get("/api/v1/accounts/verify_credentials",
//     access({ scopes: ["profile", "read:accounts"], user: true }), handler)
// Mastodon's answers: no or bad token → 401; a token without an admitting scope → 403; an app
// token (client_credentials) where a user is needed → 422. The 401 and the scope's 403 carry
// RFC 6750's `WWW-Authenticate: Bearer` challenge, as Mastodon's (Doorkeeper's) do: OAuth
// libraries read it to tell a token to renew from a token that lacks a scope.

import type { Context, MiddlewareHandler } from "hono";
import { AppError, forbidden, unauthorized } from "../../domain/errors.ts";
import { type Permission, roleMay } from "../../domain/permissions.ts";
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
  /** The user's role must grant this (the admin API); implies `user`. */
  permission?: Permission;
}

const INVALID_TOKEN = "The access token is invalid";
const OUTSIDE_SCOPES = "This action is outside the authorized scopes";

/** RFC 6750 §3: the challenge a refused bearer token is answered with. */
function challenge(c: Context<HttpEnv>, error: string, description: string, scope?: string): void {
  const scopePart = scope ? `, scope="${scope}"` : "";
  c.header(
    "WWW-Authenticate",
    `Bearer realm="Wren", error="${error}", error_description="${description}"${scopePart}`,
  );
}

/** Builds the `access(rule)` middleware factory bound to the service context. */
export function accessControl(ctx: ServiceContext) {
  return function access(rule: AccessRule = {}): MiddlewareHandler<HttpEnv> {
    return async (c, next) => {
      const bearer = bearerOf(c);
      if (bearer === null && rule.optional) return next();
      const found = bearer === null ? undefined : verifiedCaller(c, ctx);
      const viewer = found instanceof Promise ? await found : found;
      if (!viewer) {
        challenge(c, "invalid_token", INVALID_TOKEN);
        throw unauthorized(INVALID_TOKEN);
      }
      if (rule.scopes && rule.scopes.length > 0 && !scopesAdmit(viewer.token.scopes, rule.scopes)) {
        challenge(c, "insufficient_scope", OUTSIDE_SCOPES, rule.scopes.join(" "));
        throw forbidden(OUTSIDE_SCOPES);
      }
      const needsUser = rule.user === true || rule.permission !== undefined;
      if (needsUser && !viewer.account) {
        throw new AppError(422, "This method requires an authenticated user");
      }
      // A sign-up holds a token at once; until its address is confirmed and a moderator let it
      // in, the methods of a user refuse it, with Mastodon's words (Api::BaseController).
      if (needsUser && viewer.user && !isConfirmed(viewer.user)) {
        throw forbidden("Your login is missing a confirmed e-mail address");
      }
      if (needsUser && viewer.user && !isApproved(viewer.user)) {
        throw forbidden("Your login is currently pending approval");
      }
      if (rule.permission && !(viewer.user && roleMay(viewer.user.role, rule.permission))) {
        throw forbidden("This action is not allowed");
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
