// Notification requests (what the policy held back, per sender): the list, one request,
// accepting or dismissing one or several (`id[]`), and whether accepted ones are merged back.

import type { Hono } from "hono";
import { z } from "zod";
import {
  acceptRequest,
  dismissRequest,
  getRequest,
  listRequests,
  requestsMerged,
  settleRequests,
} from "../../../services/notifications/requests.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { idParam, listParam } from "../../schemas.ts";
import { renderNotificationRequests } from "../notification-json.ts";

const REQUESTS = "/api/v1/notifications/requests";
const REQUEST = `${REQUESTS}/:id{[0-9]+}`;

const listSchema = z.object(pageFields(40, 80));
const bulkSchema = z.object({
  id: listParam(idParam).refine((ids) => ids.length > 0, "can't be blank"),
});

export function notificationRequestRoutes(
  app: Hono<HttpEnv>,
  deps: HttpDeps,
  access: Access,
): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:notifications"], user: true });
  const write = access({ scopes: ["write:notifications"], user: true });

  app.get(REQUESTS, read, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const page = await listRequests(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(await renderNotificationRequests(ctx, page.requests, viewer.account.id));
  });

  app.get(`${REQUESTS}/merged`, read, async (c) => {
    const viewer = requireViewer(c);
    return c.json({ merged: await requestsMerged(ctx, viewer.account.id) });
  });

  app.get(REQUEST, read, async (c) => {
    const viewer = requireViewer(c);
    const request = await getRequest(ctx, viewer.account.id, c.req.param("id"));
    const [json] = await renderNotificationRequests(ctx, [request], viewer.account.id);
    if (!json) return c.json({ error: "Record not found" }, 404);
    return c.json(json);
  });

  for (const [verb, settle] of [
    ["accept", acceptRequest],
    ["dismiss", dismissRequest],
  ] as const) {
    app.post(`${REQUEST}/${verb}`, write, async (c) => {
      const viewer = requireViewer(c);
      await settle(ctx, await getRequest(ctx, viewer.account.id, c.req.param("id")));
      return c.json({});
    });
    app.post(`${REQUESTS}/${verb}`, write, async (c) => {
      const viewer = requireViewer(c);
      const { id } = await readValidParams(c, bulkSchema);
      await settleRequests(ctx, viewer.account.id, id, settle);
      return c.json({});
    });
  }
}
