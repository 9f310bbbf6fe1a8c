// GET /api/v1/favourites: the statuses the user favourited, most recent first, paged by the
// favourite's own id (the Link header carries those ids; they appear nowhere else).

import type { Hono } from "hono";
import { z } from "zod";
import { listFavourites } from "../../../services/interactions/list-favourites.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { jsonText } from "../../json-text.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderStatusesText } from "../status-json.ts";

const pageSchema = z.object(pageFields(20, 40));

export function favouritesRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.get("/api/v1/favourites", access({ scopes: ["read:favourites"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, pageSchema);
    const page = await listFavourites(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return jsonText(c, await renderStatusesText(ctx, page.statuses, viewer.account.id));
  });
}
