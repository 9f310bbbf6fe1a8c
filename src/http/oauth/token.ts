// POST /oauth/token and POST /oauth/revoke.

import type { Hono } from "hono";
import { serializeToken } from "../../serialization/mastodon/token.ts";
import { exchangeToken } from "../../services/oauth/exchange-token.ts";
import { revokeToken } from "../../services/oauth/revoke-token.ts";
import type { RouteModule } from "../app.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { clientCredentials, readOAuthParams, stringParam } from "./client-credentials.ts";
import { tokenThrottles } from "./throttles.ts";

export const registerTokenRoutes: RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps) => {
  app.post("/oauth/token", ...tokenThrottles(deps), async (c) => {
    const params = await readOAuthParams(c);
    const issued = await exchangeToken(deps.ctx, {
      ...clientCredentials(c, params),
      grantType: stringParam(params, "grant_type"),
      code: stringParam(params, "code"),
      redirectUri: stringParam(params, "redirect_uri"),
      codeVerifier: stringParam(params, "code_verifier"),
      refreshToken: stringParam(params, "refresh_token"),
      scope: stringParam(params, "scope"),
      username: stringParam(params, "username"),
      password: stringParam(params, "password"),
    });
    // RFC 6749 §5.1: token answers must not be cached.
    c.header("Cache-Control", "no-store");
    c.header("Pragma", "no-cache");
    return c.json(serializeToken(issued.token, issued.secret, issued.refreshSecret));
  });

  app.post("/oauth/revoke", async (c) => {
    const params = await readOAuthParams(c);
    await revokeToken(deps.ctx, {
      ...clientCredentials(c, params),
      token: stringParam(params, "token"),
    });
    return c.json({});
  });
};
