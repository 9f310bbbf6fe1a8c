// GET /api/v1/instance (the version 1 entity older clients read), /peers, /rules and /activity.
// Public: Mastodon ignores any token here, so a stale one does not break a client's server picker.

import type { Hono } from "hono";
import { serializeInstanceV1, serializeRules } from "../../../serialization/mastodon/instance.ts";
import { serializeActivity } from "../../../serialization/mastodon/instance-documents.ts";
import { currentRules } from "../../../services/instance/rules.ts";
import { loadInstanceActivity } from "../../../views/instance-activity.ts";
import { loadPeers } from "../../../views/instance-peers.ts";
import { loadInstanceView } from "../../../views/instance-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { urlContext } from "../account-json.ts";

export function instanceV1Routes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;

  app.get("/api/v1/instance", async (c) => {
    return c.json(serializeInstanceV1(await loadInstanceView(ctx), urlContext(ctx)));
  });

  app.get("/api/v1/instance/peers", async (c) => c.json(await loadPeers(ctx)));

  app.get("/api/v1/instance/rules", async (c) => c.json(serializeRules(await currentRules(ctx))));

  app.get("/api/v1/instance/activity", async (c) => {
    return c.json(serializeActivity(await loadInstanceActivity(ctx)));
  });
}
