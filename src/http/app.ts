// Builds the Hono application: cross-cutting middleware first, then every route module. Route
// modules only declare routes; they get the service context, limits and the access guard.

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { payloadTooLarge } from "../domain/errors.ts";
import type { HttpDeps, HttpEnv } from "./env.ts";
import { type Access, accessControl } from "./middleware/access.ts";
import { apiCaching } from "./middleware/api-caching.ts";
import { resolveClientAddress } from "./middleware/client-address.ts";
import { apiCors, CORS_PATHS } from "./middleware/cors.ts";
import { handleError, handleNotFound } from "./middleware/errors.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { requestContext } from "./middleware/request-context.ts";
import { ROUTE_MODULES } from "./routes.ts";

export type RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps, access: Access) => void;

/** Endpoints that take file uploads get the larger body limit. */
const UPLOAD_PATHS = new Set([
  "/api/v1/accounts/update_credentials",
  "/api/v1/media",
  "/api/v2/media",
]);

function isUpload(path: string): boolean {
  return UPLOAD_PATHS.has(path) || path.startsWith("/api/v1/media/");
}

/** Methods whose bodies no route reads. */
const BODILESS_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const NEVER_FEDERATION = ["/api/", "/oauth/", "/media/"];

function mayBeFederation(path: string): boolean {
  return !NEVER_FEDERATION.some((prefix) => path.startsWith(prefix));
}

export function createApp(deps: HttpDeps): Hono<HttpEnv> {
  // Not strict: every route also answers with a trailing slash (`/api/v1/instance/`), which
  // Mastodon.py and toot send; c.req.path is then the path without it.
  const app = new Hono<HttpEnv>({ strict: false });
  app.onError(handleError);
  app.notFound(handleNotFound);

  app.use(requestContext);
  app.use(resolveClientAddress(deps.trustedProxies));
  for (const path of CORS_PATHS) app.use(path, apiCors);

  const tooLarge = () => {
    throw payloadTooLarge();
  };
  const ordinaryLimit = bodyLimit({ maxSize: deps.limits.bodyBytes, onError: tooLarge });
  const uploadLimit = bodyLimit({ maxSize: deps.limits.uploadBytes, onError: tooLarge });
  app.use((c, next) => {
    // Touching the body stream makes the node adapter build a full web Request with a stream
    // (most of a small POST's cost), so only a chunked body, whose size is known only once read,
    // is counted while read. Otherwise Content-Length (or its absence: no body) is the size, and
    // Node's parser never delivers more than it announces.
    if (BODILESS_METHODS.has(c.req.method)) return next();
    const upload = isUpload(c.req.path);
    if (c.req.header("transfer-encoding") !== undefined) {
      return upload ? uploadLimit(c, next) : ordinaryLimit(c, next);
    }
    const size = Number(c.req.header("content-length") ?? 0);
    const max = upload ? deps.limits.uploadBytes : deps.limits.bodyBytes;
    return size > max ? tooLarge() : next();
  });

  const federationFetch = deps.federationFetch;
  if (federationFetch) {
    // Before the routes, after the body limits (inboxes take POSTs). The client API, OAuth
    // and media are never federation's, so they skip the detour.
    app.use(async (c, next) => {
      if (!mayBeFederation(c.req.path)) return next();
      return federationFetch(c.req.raw, async () => {
        await next();
        return c.res;
      });
    });
  }

  app.use("/api/*", rateLimit(deps.limits.rateLimit, deps.ctx.clock));
  // After the rate limit: an answer kept for anonymous readers still counts against their budget.
  app.use(
    "/api/*",
    apiCaching({
      seconds: deps.publicCacheSeconds,
      clock: deps.ctx.clock,
      version: () => deps.ctx.storage.version(),
    }),
  );

  const access = accessControl(deps.ctx);
  for (const register of ROUTE_MODULES) register(app, deps, access);
  return app;
}
