// The admin API's hashtags (Mastodon's /api/v1/admin/tags) and trends review
// (/api/v1/admin/trends/*), for staff holding `manage_taxonomies` with admin:read / admin:write
// tokens. Rules in services/tags/admin-tags.ts and services/discovery/trend-admin.ts.

import type { Context, Hono } from "hono";
import { z } from "zod";
import { serializePublisher } from "../../../../serialization/mastodon/admin-tag.ts";
import {
  candidateLinks,
  candidatePublishers,
  candidateStatuses,
  candidateTags,
  decideLink,
  decidePublisher,
  decideStatus,
  decideTag,
} from "../../../../services/discovery/trend-admin.ts";
import {
  findAdminTag,
  listAdminTags,
  updateAdminTag,
} from "../../../../services/tags/admin-tags.ts";
import type { HttpDeps, HttpEnv } from "../../../env.ts";
import { type Access, requireViewer } from "../../../middleware/access.ts";
import { pageFields, setLinkHeader, setOffsetLinkHeader, toIdPage } from "../../../pagination.ts";
import { readValidParams } from "../../../params.ts";
import { booleanParam } from "../../../schemas.ts";
import { UPDATE_METHODS } from "../../../update-methods.ts";
import {
  renderAdminLinks,
  renderAdminStatuses,
  renderAdminTag,
  renderAdminTags,
} from "../../admin-trend-json.ts";
import { sliceSchema } from "../trends.ts";

const READ = { scopes: ["admin:read"], permission: "manage_taxonomies" } as const;
const WRITE = { scopes: ["admin:write"], permission: "manage_taxonomies" } as const;

const listSchema = z.object(pageFields(100, 200));
const updateSchema = z.object({
  display_name: z.string().max(100).optional(),
  trendable: booleanParam.optional(),
  usable: booleanParam.optional(),
  listable: booleanParam.optional(),
});
const TAG = "/api/v1/admin/tags/:id{[0-9]+}";
const TRENDS = "/api/v1/admin/trends";

export function adminTagRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const viewerId = (c: Context<HttpEnv>) => requireViewer(c).account.id;

  /** An offset slice of `items`, with its Link header. */
  async function sliced<T>(c: Context<HttpEnv>, items: readonly T[], limits: [number, number]) {
    const slice = await readValidParams(c, sliceSchema(...limits));
    const page = items.slice(slice.offset, slice.offset + slice.limit);
    setOffsetLinkHeader(c, ctx.settings.publicUrl, { ...slice, count: page.length });
    return page;
  }

  app.get("/api/v1/admin/tags", access(READ), async (c) => {
    const params = await readValidParams(c, listSchema);
    const page = await listAdminTags(ctx, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, { newestId: page[0]?.id, oldestId: page.at(-1)?.id });
    const tags = page.map((review) => ({ item: review.key, review }));
    return c.json(await renderAdminTags(ctx, viewerId(c), tags));
  });

  app.get(TAG, access(READ), async (c) =>
    c.json(await renderAdminTag(ctx, viewerId(c), await findAdminTag(ctx, c.req.param("id")))),
  );

  app.on(UPDATE_METHODS, TAG, access(WRITE), async (c) => {
    const params = await readValidParams(c, updateSchema);
    const tag = await findAdminTag(ctx, c.req.param("id"));
    const review = await updateAdminTag(ctx, tag.key, {
      displayName: params.display_name,
      trendable: params.trendable,
      usable: params.usable,
      listable: params.listable,
    });
    return c.json(await renderAdminTag(ctx, viewerId(c), review));
  });

  app.get(`${TRENDS}/tags`, access(READ), async (c) => {
    const page = await sliced(c, await candidateTags(ctx), [10, 20]);
    return c.json(await renderAdminTags(ctx, viewerId(c), page));
  });

  app.get(`${TRENDS}/statuses`, access(READ), async (c) => {
    const page = await sliced(c, await candidateStatuses(ctx), [20, 40]);
    return c.json(await renderAdminStatuses(ctx, viewerId(c), page));
  });

  app.get(`${TRENDS}/links`, access(READ), async (c) => {
    const page = await sliced(c, await candidateLinks(ctx), [10, 20]);
    return c.json(renderAdminLinks(ctx, page));
  });

  app.get(`${TRENDS}/links/publishers`, access(READ), async (c) => {
    const page = await sliced(c, await candidatePublishers(ctx), [100, 200]);
    return c.json(
      page.map((p) => serializePublisher(p, ctx.settings.trendsRequireReview === true)),
    );
  });

  for (const [verb, trendable] of [
    ["approve", true],
    ["reject", false],
  ] as const) {
    app.post(`${TRENDS}/tags/:id{[0-9]+}/${verb}`, access(WRITE), async (c) => {
      const review = await decideTag(ctx, c.req.param("id"), trendable);
      return c.json(await renderAdminTag(ctx, viewerId(c), review));
    });
    app.post(`${TRENDS}/statuses/:id{[0-9]+}/${verb}`, access(WRITE), async (c) => {
      const decided = await decideStatus(ctx, c.req.param("id"), trendable);
      const [json] = await renderAdminStatuses(ctx, viewerId(c), [decided]);
      return c.json(json);
    });
    app.post(`${TRENDS}/links/:id{[0-9]+}/${verb}`, access(WRITE), async (c) => {
      const decided = await decideLink(ctx, c.req.param("id"), trendable);
      return c.json(renderAdminLinks(ctx, [decided])[0]);
    });
    app.post(`${TRENDS}/links/publishers/:id{[0-9]+}/${verb}`, access(WRITE), async (c) => {
      const review = await decidePublisher(ctx, c.req.param("id"), trendable);
      return c.json(serializePublisher(review, ctx.settings.trendsRequireReview === true));
    });
  }
}
