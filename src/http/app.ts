// Builds the Hono application: cross-cutting middleware first, then every route module. Route
// modules only declare routes; they get the service context, limits and the access guard.

import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { payloadTooLarge } from "../domain/errors.ts";
import { knownNoIpBlocks } from "../services/address-blocks/ip-blocks.ts";
import { nextLapse } from "../services/viewer-lapse.ts";
import type { HttpDeps, HttpEnv } from "./env.ts";
import { KeptRouteMatches } from "./kept-route-matches.ts";
import { type Access, accessControl } from "./middleware/access.ts";
import { accountBudgets, type BudgetedRoute } from "./middleware/account-budget.ts";
import { apiCaching } from "./middleware/api-caching.ts";
import { verifiedCaller } from "./middleware/caller.ts";
import { clientAddressResolver } from "./middleware/client-address.ts";
import { apiCors, CORS_PATHS } from "./middleware/cors.ts";
import { handleError, handleNotFound } from "./middleware/errors.ts";
import { inTurn } from "./middleware/in-turn.ts";
import { inboxLimits } from "./middleware/inbox-limits.ts";
import { ipAccess } from "./middleware/ip-access.ts";
import { byAccount, rateLimitsInTurn, tokenOrAddress } from "./middleware/rate-limit.ts";
import { requestContext } from "./middleware/request-context.ts";
import { ROUTE_MODULES } from "./routes.ts";
import { createStreamingHub, type StreamingHub } from "./streaming/hub.ts";
import { streamingRoutes } from "./streaming/sse.ts";

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

function budgetedRoutes(limits: HttpDeps["limits"]): BudgetedRoute[] {
  const statuses = { family: "statuses", ...budgetRule(limits.statusBudget) };
  const media = { family: "media", ...budgetRule(limits.mediaBudget) };
  const follows = { family: "follows", ...budgetRule(limits.followBudget) };
  return [
    { method: "POST", path: /^\/api\/v1\/statuses\/?$/, rule: statuses },
    { method: "POST", path: /^\/api\/v[12]\/media\/?$/, rule: media },
    { method: "PUT", path: /^\/api\/v1\/media\/?$/, rule: media },
    { method: "POST", path: /^\/api\/v1\/accounts\/\d+\/follow\/?$/, rule: follows },
  ];
}

function budgetRule(setting: { requests: number; windowSeconds: number }) {
  return { limit: setting.requests, windowSeconds: setting.windowSeconds };
}

export interface WrenHttp {
  app: Hono<HttpEnv>;
  /** How many callers the API and inbox limits hold now (each capped by limits.maxTrackedKeys). */
  trackedCallers(): number;
  /** This process's streaming connections (server-sent events here, WebSockets in main.ts). */
  streaming: StreamingHub;
}

export function createApp(deps: HttpDeps): Hono<HttpEnv> {
  return createHttp(deps).app;
}

export function createHttp(deps: HttpDeps): WrenHttp {
  // Not strict: every route also answers with a trailing slash (`/api/v1/instance/`), which
  // Mastodon.py and toot send; c.req.path is then the path without it.
  // Route matches kept per method and path (kept-route-matches.ts says why that is exact).
  const app = new Hono<HttpEnv>({ strict: false, router: new KeptRouteMatches() });
  app.onError(handleError);
  app.notFound(handleNotFound);

  app.use(requestContext);
  // The checks before the routes, two groups of middlewares each registered as one (in-turn.ts
  // says why): the client address and the IP blocks; then, after CORS (whose headers their
  // refusals and the federation's answers carry), the body limits, the inbox limits and the
  // federation detour.
  app.use(
    inTurn({
      first: clientAddressResolver(deps.trustedProxies),
      rest: [ipAccess(deps.ctx)],
      // ipAccess lets every request through while the storage is known to hold no IP block.
      passesAll: () => knownNoIpBlocks(deps.ctx),
      onError: handleError,
    }),
  );
  for (const path of CORS_PATHS) app.use(path, apiCors);

  const tooLarge = () => {
    throw payloadTooLarge();
  };
  const ordinaryLimit = bodyLimit({ maxSize: deps.limits.bodyBytes, onError: tooLarge });
  const uploadLimit = bodyLimit({ maxSize: deps.limits.uploadBytes, onError: tooLarge });
  const bodyLimits: MiddlewareHandler<HttpEnv> = (c, next) => {
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
  };

  // Before federation answers them: an inbox POST is work (a signature check, maybe fetches).
  const inbox = inboxLimits(
    {
      perAddress: deps.limits.inboxPerAddress,
      perSender: deps.limits.inboxPerSender,
      maxTrackedKeys: deps.limits.maxTrackedKeys,
    },
    deps.ctx,
  );

  const federationFetch = deps.federationFetch;
  // Before the routes, after the body limits (inboxes take POSTs). The client API, OAuth and
  // media are never federation's, so they skip the detour.
  const federation: MiddlewareHandler<HttpEnv> | undefined =
    federationFetch &&
    ((c, next) => {
      if (!mayBeFederation(c.req.path)) return next();
      return federationFetch(c.req.raw, async () => {
        await next();
        return c.res;
      });
    });
  app.use(
    inTurn({
      rest: federation
        ? [bodyLimits, inbox.middleware, federation]
        : [bodyLimits, inbox.middleware],
      // A request without a body (the inbox limits count POSTs only) to the client API, OAuth
      // or media passes all three untouched.
      passesAll: (c) => BODILESS_METHODS.has(c.req.method) && !mayBeFederation(c.req.path),
      onError: handleError,
    }),
  );

  const api = rateLimitsInTurn(
    [
      {
        name: "api",
        ...deps.limits.rateLimit,
        maxKeys: deps.limits.maxTrackedKeys,
        key: tokenOrAddress(deps.ctx),
      },
      // Mastodon's second API limit: one user's tokens together (a new token per request gains
      // nothing once the account's budget is spent).
      {
        name: "api-account",
        ...deps.limits.accountRateLimit,
        maxKeys: deps.limits.maxTrackedKeys,
        key: byAccount(deps.ctx),
      },
    ],
    deps.ctx,
  );
  app.use("/api/*", ...api.handlers);
  app.use("/api/*", accountBudgets(deps.ctx, budgetedRoutes(deps.limits)));
  // After the rate limits: a kept answer still counts against its caller's budget, and a signed-in
  // one is served only once they have verified the token (and marked the day's activity).
  const { ctx } = deps;
  app.use(
    "/api/*",
    apiCaching({
      seconds: deps.publicCacheSeconds,
      clock: ctx.clock,
      version: () => ctx.storage.version(),
      ...(deps.signedInCache && {
        viewers: {
          ...deps.signedInCache,
          caller: (c) => verifiedCaller(c, ctx),
          callerVersion: (c) => c.get("callerVersion"),
          lapse: (viewer) => nextLapse(ctx, viewer.account?.id ?? null, ctx.clock.now().getTime()),
        },
      }),
    }),
  );

  const access = accessControl(deps.ctx);
  const streaming = createStreamingHub(deps.ctx);
  streamingRoutes(app, deps.ctx, streaming);
  for (const register of ROUTE_MODULES) register(app, deps, access);
  const limiters = [api, ...inbox.limiters];
  return {
    app,
    trackedCallers: () => limiters.reduce((n, l) => n + l.trackedKeys(), 0),
    streaming,
  };
}
