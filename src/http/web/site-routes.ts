// The instance's own pages: the about page at / and a hashtag's page at /tags/:name (a
// hashtag link in any post points there). Anonymous like the profile pages.

import type { Hono } from "hono";
import { parseTagName } from "../../services/tags/tag-name.ts";
import { tagTimeline } from "../../services/timelines/tag.ts";
import { loadInstanceView } from "../../views/instance-view.ts";
import { loadResolvedViews } from "../../views/status-view.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { aboutPage } from "./about-page.ts";
import { newWebContext } from "./context.ts";
import { errorPage } from "./error-page.ts";
import { renderDocument, sendPage } from "./layout.ts";
import { tagPage } from "./tag-page.ts";

const PAGE_SIZE = 20;
const ID = /^[0-9]{1,20}$/;

export function sitePageRoutes(app: Hono<HttpEnv>, deps: HttpDeps): void {
  const { ctx } = deps;

  app.get("/", async (c) => {
    const w = newWebContext(ctx);
    const page = aboutPage(w, await loadInstanceView(ctx));
    return sendPage(c, 200, renderDocument(page.meta, page.body), w.assets);
  });

  app.get("/tags/:name", async (c) => {
    const tag = parseTagName(c.req.param("name"));
    if (!tag) return errorPage(c, 404, ctx.settings.title);
    const raw = c.req.query("max_id");
    const maxId = raw !== undefined && ID.test(raw) ? raw : undefined;
    const entries = await tagTimeline(ctx, null, tag.normalized, {}, { limit: PAGE_SIZE, maxId });
    const views = await loadResolvedViews(ctx, entries, null);
    const w = newWebContext(ctx);
    const olderThan =
      entries.length === PAGE_SIZE ? entries[entries.length - 1]?.status.id : undefined;
    const page = tagPage(w, tag, views, { maxId, olderThan });
    return sendPage(c, 200, renderDocument(page.meta, page.body), w.assets);
  });
}
