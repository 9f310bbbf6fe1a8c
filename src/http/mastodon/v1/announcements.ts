// Announcements as users see them: the active list with read state and reactions, marking one
// as read, and adding or removing an emoji reaction. Mastodon's scopes: listing needs only a
// user token, dismissing write:accounts, reacting write:favourites.

import type { Hono } from "hono";
import { serializeAnnouncement } from "../../../serialization/mastodon/announcement.ts";
import { dismissAnnouncement } from "../../../services/announcements/dismiss-announcement.ts";
import { listActiveAnnouncements } from "../../../services/announcements/list-announcements.ts";
import { addReaction, removeReaction } from "../../../services/announcements/react.ts";
import { loadAnnouncementViews } from "../../../views/announcement-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { urlContext } from "../account-json.ts";

const ANNOUNCEMENT = "/api/v1/announcements/:id{[0-9]+}";

export function announcementRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get("/api/v1/announcements", access({ user: true }), async (c) => {
    const viewer = requireViewer(c);
    const announcements = await listActiveAnnouncements(ctx);
    const views = await loadAnnouncementViews(ctx, announcements, viewer.account.id);
    const urls = urlContext(ctx);
    return c.json(views.map((view) => serializeAnnouncement(view, urls)));
  });

  app.post(
    `${ANNOUNCEMENT}/dismiss`,
    access({ scopes: ["write:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      await dismissAnnouncement(ctx, viewer.account.id, c.req.param("id"));
      return c.json({});
    },
  );

  const reaction = `${ANNOUNCEMENT}/reactions/:name`;
  const reacting = access({ scopes: ["write:favourites"], user: true });
  app.on(UPDATE_METHODS, reaction, reacting, async (c) => {
    const viewer = requireViewer(c);
    await addReaction(ctx, viewer.account.id, c.req.param("id"), c.req.param("name"));
    return c.json({});
  });
  app.delete(reaction, reacting, async (c) => {
    const viewer = requireViewer(c);
    await removeReaction(ctx, viewer.account.id, c.req.param("id"), c.req.param("name"));
    return c.json({});
  });
}
