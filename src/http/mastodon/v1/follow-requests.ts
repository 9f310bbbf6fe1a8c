// Follow requests to a locked account: the list of accounts asking, and accepting or declining
// one. `:id` is the id of the account asking, as in Mastodon.

import type { Hono } from "hono";
import { z } from "zod";
import { authorizeFollowRequest } from "../../../services/graph/authorize-follow-request.ts";
import { listFollowRequests } from "../../../services/graph/list-follow-requests.ts";
import { rejectFollowRequest } from "../../../services/graph/reject-follow-request.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderAccounts } from "../account-json.ts";
import { renderRelationship } from "../relationship-json.ts";

const listSchema = z.object(pageFields(40, 80));

export function followRequestRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get(
    "/api/v1/follow_requests",
    access({ scopes: ["read:follows"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, listSchema);
      const page = await listFollowRequests(ctx, viewer.account.id, toIdPage(params));
      setLinkHeader(c, ctx.settings.publicUrl, page);
      return c.json(
        await renderAccounts(
          ctx,
          page.items.map((i) => i.account),
        ),
      );
    },
  );

  for (const [action, decide] of [
    ["authorize", authorizeFollowRequest],
    ["reject", rejectFollowRequest],
  ] as const) {
    app.post(
      `/api/v1/follow_requests/:id{[0-9]+}/${action}`,
      access({ scopes: ["write:follows"], user: true }),
      async (c) => {
        const viewer = requireViewer(c);
        const requesterId = c.req.param("id");
        await decide(ctx, viewer.account.id, requesterId);
        return c.json(await renderRelationship(ctx, viewer.account.id, requesterId));
      },
    );
  }
}
