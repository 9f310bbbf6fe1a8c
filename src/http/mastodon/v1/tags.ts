// Hashtags: GET /api/v1/tags/:name (any valid name answers, seen or not, as Mastodon's; one
// that cannot be a hashtag is 404), following (write:follows) and featuring (write:accounts)
// one, and GET /api/v1/followed_tags (read:follows), paged by the follow's id.

import type { Hono } from "hono";
import { z } from "zod";
import { featureTag, unfeatureTagByName } from "../../../services/tags/featured-tags.ts";
import { followTag, requireTagName, unfollowTag } from "../../../services/tags/follow-tag.ts";
import { listFollowedTags } from "../../../services/tags/list-followed-tags.ts";
import { storedTagNames } from "../../../views/tag-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderTag, renderTags } from "../tag-json.ts";

/** Mastodon's followed_tags: 100 by default, up to 200. */
const followedSchema = z.object(pageFields(100, 200));

export function tagRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get("/api/v1/followed_tags", access({ scopes: ["read:follows"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, followedSchema);
    const page = await listFollowedTags(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    const names = storedTagNames(page.follows.map((f) => f.targetId));
    return c.json(await renderTags(ctx, viewer.account.id, names));
  });

  app.get("/api/v1/tags/:name", access({ optional: true }), async (c) => {
    const name = requireTagName(c.req.param("name"));
    const viewerId = c.get("viewer")?.account?.id ?? null;
    return c.json(await renderTag(ctx, viewerId, name));
  });

  const actions = [
    ["follow", ["write:follows"], followTag],
    ["unfollow", ["write:follows"], unfollowTag],
    [
      "feature",
      ["write:accounts"],
      async (...[c, id, raw]: Parameters<typeof followTag>) =>
        (await featureTag(c, id, raw, "keep")).name,
    ],
    ["unfeature", ["write:accounts"], unfeatureTagByName],
  ] as const;
  for (const [action, scopes, act] of actions) {
    app.post(`/api/v1/tags/:name/${action}`, access({ scopes, user: true }), async (c) => {
      const viewer = requireViewer(c);
      const name = await act(ctx, viewer.account.id, c.req.param("name"));
      return c.json(await renderTag(ctx, viewer.account.id, name));
    });
  }
}
