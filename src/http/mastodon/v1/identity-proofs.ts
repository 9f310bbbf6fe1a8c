// GET /api/v1/accounts/:id/identity_proofs: Keybase identity proofs, removed from Mastodon
// (3.5). Mastodon still answers the route for old clients: an empty list for an account that
// exists, 404 for one that does not; it needs a user's token, of any scope.

import type { Hono } from "hono";
import { notFound } from "../../../domain/errors.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";

export function identityProofRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.get("/api/v1/accounts/:id/identity_proofs", access({ user: true }), async (c) => {
    const account = await ctx.storage.accounts.get(c.req.param("id"));
    if (!account) throw notFound();
    return c.json([]);
  });
}
