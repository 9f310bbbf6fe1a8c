// GET /api/v1/directory (Mastodon's profile directory): public, paged by `offset`; a token, when
// given, hides the accounts its user shut out.

import type { Hono } from "hono";
import { z } from "zod";
import { profileDirectory } from "../../../services/discovery/directory.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam, integerParam, limitParam } from "../../schemas.ts";
import { renderAccounts } from "../account-json.ts";

const directorySchema = z.object({
  offset: integerParam.optional().transform((n) => Math.max(n ?? 0, 0)),
  limit: limitParam(40, 80),
  order: z.enum(["active", "new"]).optional().default("active"),
  local: booleanParam.optional().default(false),
});

export function directoryRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.get("/api/v1/directory", access({ optional: true }), async (c) => {
    const params = await readValidParams(c, directorySchema);
    const viewer = c.get("viewer");
    const accounts = await profileDirectory(ctx, viewer?.account?.id ?? null, params);
    return c.json(await renderAccounts(ctx, accounts));
  });
}
