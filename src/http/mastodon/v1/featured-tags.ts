// Featured hashtags: the user's own (read:accounts / write:accounts), suggestions from their
// recent posts, and any account's (public). Mastodon lists one's own by statuses_count.

import type { Hono } from "hono";
import { z } from "zod";
import { notFound } from "../../../domain/errors.ts";
import {
  featureTag,
  listFeaturedTags,
  unfeatureTagById,
} from "../../../services/tags/featured-tags.ts";
import { suggestFeaturedTags } from "../../../services/tags/suggest-featured-tags.ts";
import { storedTagNames } from "../../../views/tag-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { renderFeaturedTags, renderTags } from "../tag-json.ts";

const createSchema = z.object({ name: z.string() });

export function featuredTagRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get("/api/v1/featured_tags", access({ scopes: ["read:accounts"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const tags = await listFeaturedTags(ctx, viewer.account.id);
    const json = await renderFeaturedTags(ctx, viewer.account, tags);
    // Most used first; the list came newest feature first, which breaks ties.
    json.sort((a, b) => Number(b.statuses_count) - Number(a.statuses_count));
    return c.json(json);
  });

  app.post(
    "/api/v1/featured_tags",
    access({ scopes: ["write:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, createSchema);
      const { tag } = await featureTag(ctx, viewer.account.id, params.name, "refuse");
      const [json] = await renderFeaturedTags(ctx, viewer.account, [tag]);
      return c.json(json);
    },
  );

  app.get(
    "/api/v1/featured_tags/suggestions",
    access({ scopes: ["read:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const names = await suggestFeaturedTags(ctx, viewer.account.id);
      return c.json(await renderTags(ctx, viewer.account.id, storedTagNames(names)));
    },
  );

  app.delete(
    "/api/v1/featured_tags/:id{[0-9]+}",
    access({ scopes: ["write:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      await unfeatureTagById(ctx, viewer.account.id, c.req.param("id"));
      return c.json({});
    },
  );

  app.get(
    "/api/v1/accounts/:id{[0-9]+}/featured_tags",
    access({ optional: true, scopes: ["read:accounts"] }),
    async (c) => {
      const account = await ctx.storage.accounts.get(c.req.param("id"));
      if (!account) throw notFound();
      // A suspended account's features are not shown (Mastodon answers an empty list).
      if (account.suspended) return c.json([]);
      const tags = await listFeaturedTags(ctx, account.id);
      return c.json(await renderFeaturedTags(ctx, account, tags));
    },
  );
}
