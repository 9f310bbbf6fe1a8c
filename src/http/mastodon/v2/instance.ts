// GET /api/v2/instance: the instance entity current clients read first, with the limits the
// server enforces (configuration), registration state, contact and rules. Public.

import type { Hono } from "hono";
import { serializeInstanceV2 } from "../../../serialization/mastodon/instance.ts";
import { loadInstanceView } from "../../../views/instance-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { urlContext } from "../account-json.ts";

export function instanceV2Routes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;
  app.get("/api/v2/instance", async (c) => {
    return c.json(serializeInstanceV2(await loadInstanceView(ctx), urlContext(ctx)));
  });
}
