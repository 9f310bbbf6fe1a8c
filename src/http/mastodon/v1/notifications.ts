// API v1 notifications: the list (filtered by type and sender, paged with Link headers), one
// notification, dismissing one, clearing all, and the unread count past the read marker.

import type { Hono } from "hono";
import { z } from "zod";
import { listNotifications } from "../../../services/notifications/list-notifications.ts";
import { notificationQuery } from "../../../services/notifications/query.ts";
import {
  clearNotifications,
  dismissNotification,
  getNotification,
} from "../../../services/notifications/single-notification.ts";
import { countUnread } from "../../../services/notifications/unread-count.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderNotifications } from "../notification-json.ts";
import { notificationFilterFields, queryInput, unreadCountSchema } from "../notification-params.ts";

const NOTIFICATION = "/api/v1/notifications/:id{[0-9]+}";

const listSchema = z.object({ ...pageFields(40, 80), ...notificationFilterFields });

export function notificationV1Routes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:notifications"], user: true });
  const write = access({ scopes: ["write:notifications"], user: true });

  app.get("/api/v1/notifications", read, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const page = await listNotifications(
      ctx,
      viewer.account.id,
      toIdPage(params),
      notificationQuery(queryInput(params)),
    );
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(await renderNotifications(ctx, page.notifications, viewer.account.id));
  });

  app.get("/api/v1/notifications/unread_count", read, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, unreadCountSchema);
    const query = notificationQuery(queryInput(params));
    return c.json({ count: await countUnread(ctx, viewer.account.id, query, params.limit) });
  });

  app.post("/api/v1/notifications/clear", write, async (c) => {
    const viewer = requireViewer(c);
    await clearNotifications(ctx, viewer.account.id);
    return c.json({});
  });

  app.get(NOTIFICATION, read, async (c) => {
    const viewer = requireViewer(c);
    const shown = await getNotification(ctx, viewer.account.id, c.req.param("id"));
    const [json] = await renderNotifications(ctx, [shown], viewer.account.id);
    if (!json) return c.json({ error: "Record not found" }, 404);
    return c.json(json);
  });

  app.post(`${NOTIFICATION}/dismiss`, write, async (c) => {
    const viewer = requireViewer(c);
    await dismissNotification(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });
}
