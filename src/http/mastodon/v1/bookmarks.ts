// GET /api/v1/bookmarks: the statuses the user bookmarked, most recent first, paged by the
// bookmark's own id (the Link header carries those ids; they appear nowhere else).

import type { Hono } from "hono";
import { z } from "zod";
import { listBookmarks } from "../../../services/interactions/list-bookmarks.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { jsonText } from "../../json-text.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderStatusesText } from "../status-json.ts";

const pageSchema = z.object(pageFields(20, 40));

export function bookmarksRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.get("/api/v1/bookmarks", access({ scopes: ["read:bookmarks"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, pageSchema);
    const page = await listBookmarks(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return jsonText(c, await renderStatusesText(ctx, page.statuses, viewer.account.id));
  });
}
