// GET /.well-known/oauth-authorization-server (RFC 8414), so clients can discover endpoints.

import type { Hono } from "hono";
import { serializeOAuthMetadata } from "../../serialization/mastodon/oauth-metadata.ts";
import type { RouteModule } from "../app.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";

export const registerOAuthMetadataRoutes: RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps) => {
  const body = serializeOAuthMetadata(deps.ctx.settings.publicUrl);
  app.get("/.well-known/oauth-authorization-server", (c) => {
    c.header("Cache-Control", "public, max-age=900");
    return c.json(body);
  });
};
