// GET /api/v1/instance (the version 1 entity older clients read), /peers and /rules. Public:
// Mastodon ignores any token here, so a stale one does not break a client's server picker.
// /api/v1/instance/activity is not offered (Mastodon answers 404 when it is switched off).

import type { Hono } from "hono";
import { serializeInstanceV1, serializeRules } from "../../../serialization/mastodon/instance.ts";
import { loadInstanceView } from "../../../views/instance-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { urlContext } from "../account-json.ts";

export function instanceV1Routes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;

  app.get("/api/v1/instance", async (c) => {
    return c.json(serializeInstanceV1(await loadInstanceView(ctx), urlContext(ctx)));
  });

  app.get("/api/v1/instance/peers", async (c) => {
    const domains = await ctx.storage.accounts.domains();
    return c.json([...domains].sort());
  });

  app.get("/api/v1/instance/rules", (c) => c.json(serializeRules(ctx.settings.rules)));
}
