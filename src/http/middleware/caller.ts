// Who holds the request's bearer token, worked out once per request: the rate limit (before the
// routes) and the access guard (on each route) both need it, and a token lookup reads storage.

import type { Context } from "hono";
import { authenticateToken } from "../../services/auth/authenticate-token.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { HttpEnv, Viewer } from "../env.ts";

/** The bearer token; "" for an Authorization header that is not a bearer; null for none. */
export function bearerOf(c: Context<HttpEnv>): string | null {
  const header = c.req.header("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? (match[1] as string) : "";
  }
  return null;
}

/**
 * The verified holder of the request's token; null when there is none or it is not valid. A
 * promise while the lookup runs (the first asker starts it); the value itself once known, so the
 * rate limits, the access guard and the routes after the first ask without a promise.
 */
export function verifiedCaller(
  c: Context<HttpEnv>,
  ctx: ServiceContext,
): Viewer | null | Promise<Viewer | null> {
  const known = c.get("caller");
  if (known !== undefined) return known;
  const bearer = bearerOf(c);
  if (!bearer) {
    c.set("caller", null);
    return null;
  }
  // The version the lookup begins at: a kept signed-in answer (api-caching.ts) is served only to
  // a token verified at the version the answer was rendered at.
  c.set("callerVersion", ctx.storage.version());
  const lookup = authenticateToken(ctx, bearer).then((viewer) => {
    c.set("caller", viewer);
    return viewer;
  });
  c.set("caller", lookup);
  return lookup;
}
