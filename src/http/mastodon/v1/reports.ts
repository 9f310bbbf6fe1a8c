// POST /api/v1/reports: a user reports an account (and some of its statuses) to the moderators,
// optionally forwarding the report to the account's server. Rules in services/reports/.

import type { Hono } from "hono";
import { z } from "zod";
import { serializeReport } from "../../../serialization/mastodon/report.ts";
import { fileReport } from "../../../services/reports/file-report.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { anyIdParam, booleanParam, idParam, listParam } from "../../schemas.ts";
import { renderAccount } from "../account-json.ts";

const reportSchema = z.object({
  account_id: idParam,
  status_ids: listParam(idParam).optional(),
  comment: z.string().optional(),
  forward: booleanParam.optional(),
  forward_to_domains: listParam(z.string()).optional(),
  category: z.string().optional(),
  // Integers in Mastodon's documentation; strings in its answers. Checked against the rules.
  rule_ids: listParam(anyIdParam).optional(),
});

export function reportRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  app.post("/api/v1/reports", access({ scopes: ["write:reports"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, reportSchema);
    const { report, target } = await fileReport(ctx, {
      reporterId: viewer.account.id,
      targetId: params.account_id,
      statusIds: params.status_ids ?? [],
      comment: params.comment ?? "",
      forward: params.forward ?? false,
      forwardToDomains: params.forward_to_domains ?? [],
      category: params.category,
      ruleIds: params.rule_ids ?? [],
    });
    return c.json(serializeReport(report, await renderAccount(ctx, target)));
  });
}
