// GET /api/v1_alpha/async_refreshes/:id (Mastodon 4.4, experimental): how background work the
// user is waiting for is going. Wren's asynchronous work of that kind is generating an annual
// report (its refresh id comes in the Mastodon-Async-Refresh header of …/generate and …/state).
// An unknown, expired or someone else's id answers 404, as Mastodon answers unknown ids.

import type { Hono } from "hono";
import { serializeAsyncRefresh } from "../../../serialization/mastodon/annual-report.ts";
import { getAsyncRefresh } from "../../../services/async-refreshes/async-refreshes.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";

export function asyncRefreshRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.get(
    "/api/v1_alpha/async_refreshes/:id",
    access({ scopes: ["read"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const refresh = await getAsyncRefresh(ctx, viewer.account.id, c.req.param("id"));
      return c.json(serializeAsyncRefresh(refresh));
    },
  );
}
