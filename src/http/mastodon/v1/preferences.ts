// GET /api/v1/preferences: the signed-in user's preferences, for clients that follow the
// account's posting defaults across apps.

import type { Hono } from "hono";
import { serializePreferences } from "../../../serialization/mastodon/preferences.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";

export function preferencesRoutes(app: Hono<HttpEnv>, _deps: HttpDeps, access: Access): void {
  app.get("/api/v1/preferences", access({ scopes: ["read:accounts"], user: true }), (c) => {
    const { user } = requireViewer(c);
    return c.json(serializePreferences(user));
  });
}
