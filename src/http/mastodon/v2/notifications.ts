// API v2 grouped notifications (Mastodon 4.3): pages of notification groups with the accounts
// and statuses they refer to, one group by key, its accounts, dismissing it, and the count of
// unread groups.

import type { Hono } from "hono";
import { z } from "zod";
import {
  countUnreadGroups,
  dismissNotificationGroup,
  getNotificationGroup,
  groupedTypesFor,
  listNotificationGroups,
  notificationGroupAccounts,
} from "../../../services/notifications/groups.ts";
import { notificationQuery } from "../../../services/notifications/query.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderAccounts } from "../account-json.ts";
import { renderNotificationGroups } from "../notification-json.ts";
import {
  groupedTypesField,
  notificationFilterFields,
  queryInput,
  unreadCountSchema,
} from "../notification-params.ts";

// Keys are `ungrouped-<id>`, `follow-<hour>` or `<type>-<status id>-<hour>`.
const GROUP = "/api/v2/notifications/:group_key{[a-z_]+-[0-9-]+}";

const listSchema = z.object({
  ...pageFields(40, 80),
  ...notificationFilterFields,
  ...groupedTypesField,
  expand_accounts: z.enum(["full", "partial_avatars"]).optional(),
});

export function notificationV2Routes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:notifications"], user: true });
  const write = access({ scopes: ["write:notifications"], user: true });

  app.get("/api/v2/notifications", read, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const page = await listNotificationGroups(
      ctx,
      viewer.account.id,
      toIdPage(params),
      notificationQuery(queryInput(params)),
      groupedTypesFor(params.grouped_types),
    );
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(
      await renderNotificationGroups(ctx, page.groups, viewer.account.id, {
        paginated: true,
        partialAvatars: params.expand_accounts === "partial_avatars",
      }),
    );
  });

  app.get("/api/v2/notifications/unread_count", read, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, unreadCountSchema);
    const count = await countUnreadGroups(
      ctx,
      viewer.account.id,
      notificationQuery(queryInput(params)),
      groupedTypesFor(params.grouped_types),
      params.limit,
    );
    return c.json({ count });
  });

  app.get(GROUP, read, async (c) => {
    const viewer = requireViewer(c);
    const group = await getNotificationGroup(ctx, viewer.account.id, c.req.param("group_key"));
    return c.json(
      await renderNotificationGroups(ctx, [group], viewer.account.id, { paginated: false }),
    );
  });

  app.get(`${GROUP}/accounts`, read, async (c) => {
    const viewer = requireViewer(c);
    const key = c.req.param("group_key");
    const accounts = await notificationGroupAccounts(ctx, viewer.account.id, key);
    return c.json(await renderAccounts(ctx, accounts));
  });

  app.post(`${GROUP}/dismiss`, write, async (c) => {
    const viewer = requireViewer(c);
    await dismissNotificationGroup(ctx, viewer.account.id, c.req.param("group_key"));
    return c.json({});
  });
}
