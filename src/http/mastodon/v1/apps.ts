// POST /api/v1/apps (register a client, no token needed) and GET /api/v1/apps/verify_credentials
// (any valid token, including client_credentials ones, since Mastodon 4.3).

import type { Hono } from "hono";
import { z } from "zod";
import { unauthorized } from "../../../domain/errors.ts";
import {
  serializeApplication,
  serializeCredentialApplication,
} from "../../../serialization/mastodon/application.ts";
import { registerApp } from "../../../services/oauth/register-app.ts";
import { vapidKeys } from "../../../services/push/vapid-keys.ts";
import type { RouteModule } from "../../app.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";

const stringOrList = z.union([z.string(), z.array(z.string())]);

const createAppSchema = z.object({
  client_name: z.string().optional(),
  redirect_uris: stringOrList.optional(),
  // Mastodon takes a space-separated string; a list is accepted for clients that send one.
  scopes: stringOrList.transform((v) => (Array.isArray(v) ? v.join(" ") : v)).optional(),
  website: z.string().optional(),
});

export const registerAppsRoutes: RouteModule = (
  app: Hono<HttpEnv>,
  deps: HttpDeps,
  access: Access,
) => {
  app.post("/api/v1/apps", async (c) => {
    const params = await readValidParams(c, createAppSchema);
    const registered = await registerApp(deps.ctx, {
      clientName: params.client_name,
      redirectUris: params.redirect_uris,
      scopes: params.scopes,
      website: params.website,
    });
    const { publicKey } = await vapidKeys(deps.ctx);
    return c.json(
      serializeCredentialApplication(registered.app, registered.clientSecret, publicKey),
    );
  });

  app.get("/api/v1/apps/verify_credentials", access(), async (c) => {
    // access() sets the viewer or answers 401 before we get here.
    const viewer = c.get("viewer");
    if (!viewer) throw unauthorized();
    const { publicKey } = await vapidKeys(deps.ctx);
    return c.json(serializeApplication(viewer.app, publicKey));
  });
};
