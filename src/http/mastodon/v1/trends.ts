// Trends (Mastodon's /api/v1/trends/*): public, offset-paged with Link headers. GET /api/v1/trends is the
// pre-3.5 name of the tag list. Links are the preview cards of the trending statuses.

import type { Hono } from "hono";
import { z } from "zod";
import { serializePreviewCard } from "../../../serialization/mastodon/preview-card.ts";
import {
  trendingLinks,
  trendingStatuses,
  trendingTagNames,
} from "../../../services/discovery/trending.ts";
import { storedTagNames } from "../../../views/tag-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { jsonText } from "../../json-text.ts";
import type { Access } from "../../middleware/access.ts";
import { setOffsetLinkHeader } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { integerParam, limitParam } from "../../schemas.ts";
import { urlContext } from "../account-json.ts";
import { renderResolvedBytes } from "../status-json.ts";
import { renderTags } from "../tag-json.ts";

/** Offset paging of trends (Mastodon's `offset` and `limit`). */
export const sliceSchema = (defaultLimit: number, maxLimit: number) =>
  z.object({
    offset: integerParam.optional().transform((n) => Math.max(n ?? 0, 0)),
    limit: limitParam(defaultLimit, maxLimit),
  });
const tagsSchema = sliceSchema(10, 20);
const statusesSchema = sliceSchema(20, 40);

export function trendRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const viewerIdOf = (c: { get(key: "viewer"): HttpEnv["Variables"]["viewer"] }) =>
    c.get("viewer")?.account?.id ?? null;

  for (const path of ["/api/v1/trends/tags", "/api/v1/trends"]) {
    app.get(path, access({ optional: true }), async (c) => {
      const slice = await readValidParams(c, tagsSchema);
      const names = await trendingTagNames(ctx, slice);
      setOffsetLinkHeader(c, ctx.settings.publicUrl, { ...slice, count: names.length });
      return c.json(await renderTags(ctx, viewerIdOf(c), storedTagNames(names)));
    });
  }

  app.get("/api/v1/trends/statuses", access({ optional: true }), async (c) => {
    const slice = await readValidParams(c, statusesSchema);
    const viewerId = viewerIdOf(c);
    const { page, read } = await trendingStatuses(ctx, viewerId, slice);
    // The count read, not shown: a page short of the reader's shut-outs still has a next one.
    setOffsetLinkHeader(c, ctx.settings.publicUrl, { ...slice, count: read });
    return jsonText(c, await renderResolvedBytes(ctx, page, viewerId, "public"));
  });

  app.get("/api/v1/trends/links", access({ optional: true }), async (c) => {
    const slice = await readValidParams(c, tagsSchema);
    const cards = await trendingLinks(ctx, slice);
    setOffsetLinkHeader(c, ctx.settings.publicUrl, { ...slice, count: cards.length });
    const urls = urlContext(ctx);
    return c.json(cards.map((card) => serializePreviewCard(card, urls)));
  });
}
