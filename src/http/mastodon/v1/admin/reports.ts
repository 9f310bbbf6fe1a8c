// The admin API's reports (Mastodon's /api/v1/admin/reports): the queue for moderators, who
// hold the `manage_reports` permission (moderators and admins) and a token with the
// admin:read:reports or admin:write:reports scope. Rules in services/reports/admin-reports.ts.

import type { Context, Hono } from "hono";
import { z } from "zod";
import { notFound } from "../../../../domain/errors.ts";
import {
  assignReport,
  listAdminReports,
  recategoriseReport,
  resolveReportAs,
} from "../../../../services/reports/admin-reports.ts";
import {
  type ReportDetails,
  reopenReport,
  showReport,
} from "../../../../services/reports/moderate-report.ts";
import type { HttpDeps, HttpEnv } from "../../../env.ts";
import { type Access, requireViewer } from "../../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../../pagination.ts";
import { readValidParams } from "../../../params.ts";
import { anyIdParam, booleanParam, idParam, listParam } from "../../../schemas.ts";
import { UPDATE_METHODS } from "../../../update-methods.ts";
import { renderAdminReports } from "../../admin-report-json.ts";

const READ = { scopes: ["admin:read:reports"], permission: "manage_reports" } as const;
const WRITE = { scopes: ["admin:write:reports"], permission: "manage_reports" } as const;

const listSchema = z.object({
  ...pageFields(100, 200),
  resolved: booleanParam.optional(),
  account_id: idParam.optional(),
  target_account_id: idParam.optional(),
});

const updateSchema = z.object({
  category: z.string().optional(),
  rule_ids: listParam(anyIdParam).optional(),
});

const ID = "/api/v1/admin/reports/:id{[0-9]+}";

export function adminReportRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  async function answer(c: Context<HttpEnv>, details: ReportDetails) {
    const [json] = await renderAdminReports(ctx, [details], requireViewer(c).account.id);
    // The reporter or the target is gone: nothing the entity can show.
    if (!json) throw notFound();
    return c.json(json);
  }

  app.get("/api/v1/admin/reports", access(READ), async (c) => {
    const params = await readValidParams(c, listSchema);
    const page = await listAdminReports(
      ctx,
      {
        resolved: params.resolved,
        accountId: params.account_id,
        targetAccountId: params.target_account_id,
      },
      toIdPage(params),
    );
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(await renderAdminReports(ctx, page.details, requireViewer(c).account.id));
  });

  app.get(ID, access(READ), async (c) => answer(c, await showReport(ctx, c.req.param("id"))));

  app.on(UPDATE_METHODS, ID, access(WRITE), async (c) => {
    const params = await readValidParams(c, updateSchema);
    return answer(
      c,
      await recategoriseReport(ctx, c.req.param("id"), {
        category: params.category,
        ruleIds: params.rule_ids,
      }),
    );
  });

  app.post(`${ID}/assign_to_self`, access(WRITE), async (c) =>
    answer(c, await assignReport(ctx, c.req.param("id"), requireViewer(c).account.id)),
  );

  app.post(`${ID}/unassign`, access(WRITE), async (c) =>
    answer(c, await assignReport(ctx, c.req.param("id"), null)),
  );

  app.post(`${ID}/resolve`, access(WRITE), async (c) =>
    answer(c, await resolveReportAs(ctx, c.req.param("id"), requireViewer(c).account.id)),
  );

  app.post(`${ID}/reopen`, access(WRITE), async (c) => {
    await reopenReport(ctx, c.req.param("id"));
    return answer(c, await showReport(ctx, c.req.param("id")));
  });
}
