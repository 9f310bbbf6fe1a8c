// GET /api/v1/accounts/:id/statuses: an account's statuses for its profile, with Mastodon's
// pinned, only_media, exclude_replies, exclude_reblogs and tagged switches. No token needed;
// what a viewer gets depends on who they are (services/timelines/account-statuses.ts).

import type { Hono } from "hono";
import { z } from "zod";
import { accountStatuses } from "../../../services/timelines/account-statuses.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { jsonText } from "../../json-text.ts";
import type { Access } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam } from "../../schemas.ts";
import { renderResolvedBytes } from "../status-json.ts";

const schema = z.object({
  ...pageFields(20, 40),
  pinned: booleanParam.optional(),
  only_media: booleanParam.optional(),
  exclude_replies: booleanParam.optional(),
  exclude_reblogs: booleanParam.optional(),
  tagged: z.string().max(200).optional(),
});

export function accountStatusesRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.get(
    "/api/v1/accounts/:id{[0-9]+}/statuses",
    access({ optional: true, scopes: ["read:statuses"] }),
    async (c) => {
      const viewerId = c.get("viewer")?.account?.id ?? null;
      const params = await readValidParams(c, schema);
      const page = await accountStatuses(
        ctx,
        viewerId,
        c.req.param("id"),
        {
          pinned: params.pinned,
          onlyMedia: params.only_media,
          excludeReplies: params.exclude_replies,
          excludeReblogs: params.exclude_reblogs,
          tagged: params.tagged,
        },
        toIdPage(params),
      );
      setLinkHeader(c, ctx.settings.publicUrl, {
        newestId: page[0]?.status.id,
        oldestId: page[page.length - 1]?.status.id,
      });
      return jsonText(c, await renderResolvedBytes(ctx, page, viewerId, "account"));
    },
  );
}
