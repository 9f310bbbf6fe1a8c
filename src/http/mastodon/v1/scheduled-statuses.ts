// Scheduled statuses (Mastodon's scheduled_statuses API): list, view, move and cancel the
// author's own; another account's are "Record not found". Scheduling itself is
// POST /api/v1/statuses with `scheduled_at` (statuses.ts).

import type { Hono } from "hono";
import { z } from "zod";
import { cancelScheduledStatus } from "../../../services/scheduled-statuses/cancel-scheduled.ts";
import { listScheduledStatuses } from "../../../services/scheduled-statuses/list-scheduled.ts";
import { getOwnScheduled } from "../../../services/scheduled-statuses/own-scheduled.ts";
import { rescheduleStatus } from "../../../services/scheduled-statuses/reschedule-status.ts";
import { parseScheduledAt } from "../../../services/scheduled-statuses/schedule-time.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { renderScheduledStatus, renderScheduledStatuses } from "../scheduled-status-json.ts";

const SCHEDULED = "/api/v1/scheduled_statuses/:id{[0-9]+}";

const pageSchema = z.object(pageFields(20, 40));

const updateSchema = z.object({
  scheduled_at: z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (v === null || v === "" ? undefined : v)),
});

export function scheduledStatusRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:statuses"], user: true });
  const write = access({ scopes: ["write:statuses"], user: true });

  app.get("/api/v1/scheduled_statuses", read, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, pageSchema);
    const page = await listScheduledStatuses(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(await renderScheduledStatuses(ctx, page.scheduled));
  });

  app.get(SCHEDULED, read, async (c) => {
    const viewer = requireViewer(c);
    const scheduled = await getOwnScheduled(ctx, viewer.account.id, c.req.param("id"));
    return c.json(await renderScheduledStatus(ctx, scheduled));
  });

  app.on(UPDATE_METHODS, SCHEDULED, write, async (c) => {
    const viewer = requireViewer(c);
    const { scheduled_at } = await readValidParams(c, updateSchema);
    const at = scheduled_at === undefined ? undefined : parseScheduledAt(scheduled_at);
    const moved = await rescheduleStatus(ctx, viewer.account.id, c.req.param("id"), at);
    return c.json(await renderScheduledStatus(ctx, moved));
  });

  app.delete(SCHEDULED, write, async (c) => {
    const viewer = requireViewer(c);
    await cancelScheduledStatus(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });
}
